/**
 * @module `svc pipeline undeploy <name> [--force]`: `POST /undeploy/<name>`. With --force a
 * pipeline that is not deployed (404) is a warning and exit 0.
 */
import { ServerError, SvcClient, runClientCommand } from "./client.js";
import { booleanFlag, stringFlag } from "./flags.js";
import { success, warn } from "./output.js";
import type { PipelineAction } from "./pipeline.js";

interface ActionResponse {
  message?: string;
}

export async function undeploy(name: string, flags: Record<string, unknown>): Promise<void> {
  await runClientCommand(async () => {
    const client = SvcClient.fromSettings(process.cwd(), stringFlag(flags, "url"));
    try {
      const answer = await client.json<ActionResponse>("POST", `/undeploy/${encodeURIComponent(name)}`);
      success(answer.message ?? `Pipeline '${name}' successfully undeployed`);
    } catch (error) {
      if (error instanceof ServerError && error.status === 404 && booleanFlag(flags, "force")) {
        warn(`Nothing to undeploy: ${error.detail}`);
        return;
      }
      throw error;
    }
  });
}

export const undeployAction: PipelineAction = {
  name: "undeploy",
  args: ["<name>"],
  summary: "Undeploy a pipeline and delete its saved files on the server",
  options: [{ raw: "--force", description: "Succeed (with a warning) when the pipeline is not deployed" }],
  examples: ["svc pipeline undeploy chat", "svc pipeline undeploy chat --force"],
  run: ([name], flags) => undeploy(name!, flags),
};
