/**
 * @module Where the metrics find MCP sessions: `svc:mcp` registers its session counts under the
 * `mcp.sessions` token (the same token as `MCP_SESSIONS` of `svc/mcp`, declared here by name so
 * the metrics plugin does not load the MCP SDK). They are read when Prometheus scrapes, in
 * whatever order the two plugins loaded; without `svc:mcp`, or with it in stdio or stateless
 * mode, the series stay at zero.
 */
import type { DependencyContainer } from "tsyringe";
import { token } from "svc/plugin";

/** What `svc:mcp` counts, by transport (see `McpSessionCounts` of `svc/mcp`). */
export interface McpSessionCountsLike {
  open(): Record<string, number>;
  opened(): Record<string, number>;
}

const MCP_SESSIONS = token<McpSessionCountsLike>("mcp.sessions");

export function mcpSessionsOf(container: DependencyContainer): () => McpSessionCountsLike | undefined {
  return () => (container.isRegistered(MCP_SESSIONS, true) ? container.resolve<McpSessionCountsLike>(MCP_SESSIONS) : undefined);
}
