/**
 * @module Who may see and call which tool, decided by the kernel's `auth` hook like every HTTP
 * route: deploy and undeploy need the `admin` scope, a pipeline's tool the right to run that
 * pipeline, any other tool `run`. A local process over stdio is the operator itself.
 */
import type { IncomingMessage } from "node:http";
import type { PipelineRegistry, PluginApi } from "svc/plugin";
import { MANAGEMENT_TOOLS } from "./management-tools.js";
import type { ToolAccess } from "./tool-server.js";

const ADMIN_TOOLS: ReadonlySet<string> = new Set<string>(["deploy_pipeline", "undeploy_pipeline"] satisfies (typeof MANAGEMENT_TOOLS)[number][]);
const CORE_TOOLS: ReadonlySet<string> = new Set<string>(MANAGEMENT_TOOLS);

export function toolAccess(api: PluginApi, registry: PipelineRegistry): ToolAccess {
  return async (tool, { headers, transport }) => {
    if (transport === "stdio" || transport === "memory") return true;
    const pipeline = !CORE_TOOLS.has(tool) && registry.get(tool) ? tool : undefined;
    const decision = await api.authorize({
      scope: ADMIN_TOOLS.has(tool) ? "admin" : "run",
      req: { headers } as unknown as IncomingMessage,
      state: {},
      pipeline,
    });
    return decision.allow;
  };
}
