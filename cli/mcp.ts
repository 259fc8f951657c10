/**
 * @module `svc mcp run`: the MCP server as its own app (default port 1417). It deploys the
 * pipelines directory (wrappers and YAML), follows it for changes, and serves every pipeline as a
 * tool over Streamable HTTP (`/mcp`, plus legacy SSE at `/sse`), SSE only, or stdio. Over stdio,
 * stdout carries the protocol: logs and anything a wrapper prints go to stderr.
 */
import { ensurePortFree } from "./port-check.js";
import type { CAC } from "cac";
import { createKernel, Logger } from "svc/plugin";
import { loadPlugins } from "svc/internal";
import { mcpSettings } from "../plugins/mcp/settings.js";
import { knownSettings, launcherSettings } from "./cli-settings.js";
import { UsageError } from "./client.js";
import { builtinPlugins, mcpPluginSpecs } from "./default-plugins.js";
import { resolveConfig } from "./run-settings.js";
import { shutdownOnSignals } from "./shutdown.js";

interface McpFlags {
  host?: string;
  port?: string | number;
  pipelinesDir?: string;
  additionalModulePath?: string;
  transport?: string;
  stateful?: boolean;
  jsonResponse?: boolean;
  plugin?: string[];
}

function flagSettings(flags: McpFlags): Record<string, unknown> {
  return {
    mcpHost: flags.host,
    mcpPort: flags.port,
    pipelinesDir: flags.pipelinesDir,
    additionalModulePath: flags.additionalModulePath,
    mcpTransport: flags.transport,
    mcpStateful: flags.stateful || undefined,
    mcpJsonResponse: flags.jsonResponse || undefined,
    plugins: flags.plugin?.length ? flags.plugin : undefined,
  };
}

export function registerMcpCommand(cli: CAC): void {
  cli
    .command("mcp <action>", "The MCP server: `svc mcp run` serves every pipeline as an MCP tool")
    .usage("mcp run [options]")
    .option("--host <host>", "Bind host (default: localhost, SERVICE_MCP_HOST)")
    .option("--port <port>", "Port (default: 1417, SERVICE_MCP_PORT)")
    .option("--pipelines-dir <dir>", "Pipelines directory, deployed at startup and followed for changes (default: ./pipelines)")
    .option("--additional-module-path, --additional-python-path <dir>", "Extra resolution root for shared wrapper code")
    .option("--transport <kind>", "streamable-http (default; legacy SSE at /sse too), sse, or stdio")
    .option("--stateful", "Issue sessions on initialize (list-changed notifications over the session stream)")
    .option("-j, --json-response", "Answer Streamable HTTP requests with plain JSON instead of SSE")
    .option("--plugin <spec>", "Load a plugin: a path or a package (repeatable)", { type: [String] })
    .example("svc mcp run --port 1417")
    .example("svc mcp run --transport stdio --pipelines-dir ./pipelines")
    .action(async (action: string, flags: McpFlags) => {
      if (action !== "run") throw new UsageError(`unknown mcp action '${action}' (expected: run)`);
      await runMcp(flags, process.cwd());
    });
}

async function runMcp(flags: McpFlags, cwd: string): Promise<void> {
  const config = resolveConfig(flagSettings(flags), mcpPluginSpecs, cwd, process.env, { ...launcherSettings, ...mcpSettings });
  for (const [k, v] of Object.entries(config.dotenv)) process.env[k] ??= v;
  const { settings } = config;
  const stdio = settings.mcpTransport === "stdio";
  // stdout is the protocol channel over stdio: whatever a wrapper prints must not land there.
  if (stdio) console.log = console.info = console.debug = console.error;
  const log = Logger.create(settings.logLevel, settings.logFormat);
  if (!stdio) await ensurePortFree(settings.mcpHost, settings.mcpPort);
  const entries = await loadPlugins(config.plugins, { cwd, builtins: builtinPlugins });
  const kernel = await createKernel({
    sources: config.sources,
    settings: { host: settings.mcpHost, port: settings.mcpPort },
    plugins: entries,
    logger: log,
    knownSettings,
  });
  await kernel.deployer.deployAll();
  await kernel.watchPipelines();

  let stdioServer: { close(): Promise<void> } | undefined;
  if (stdio) {
    const { MCP_TOOL_SERVER } = await import("../plugins/mcp/index.js");
    stdioServer = await kernel.resolve(MCP_TOOL_SERVER).run({ transport: "stdio" });
    log.info("svc MCP server on stdio", { pid: process.pid });
  } else {
    const address = await kernel.listen();
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    const paths = settings.mcpTransport === "sse" ? "legacy SSE at /sse" : "MCP at /mcp, legacy SSE at /sse";
    log.info(`svc listening on http://${host}:${address.port}${settings.rootPath === "/" ? "" : settings.rootPath} (${paths})`, {
      pid: process.pid,
    });
  }

  const stop = shutdownOnSignals(log, async () => {
    await stdioServer?.close();
    await kernel.close();
  });
  // A desktop client ends a stdio server by closing its stdin.
  if (stdio) process.stdin.once("end", () => stop("stdin closed"));
}
