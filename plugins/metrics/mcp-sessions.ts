/**
 * @module Where the metrics find MCP sessions: `svc:mcp` provides its session counts under the
 * `mcp.sessions` token, declared in `svc/mcp` as `MCP_SESSIONS`. This is a reference to that token
 * by its name, not a second declaration: importing `svc/mcp` would load the MCP SDK (about a second
 * of start-up on a busy machine) into every `svc run` that has metrics but no MCP server.
 * Without `svc:mcp` the series stay at zero.
 */
import { token } from "svc/plugin";

/** What `svc:mcp` counts, by transport (see `McpSessionCounts` of `svc/mcp`). */
export interface McpSessionCountsLike {
  open(): Record<string, number>;
  opened(): Record<string, number>;
}

export const MCP_SESSIONS = token<McpSessionCountsLike>("mcp.sessions");
