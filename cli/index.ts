#!/usr/bin/env node
/**
 * @module The `svc` program. One file per command; this file wires them into cac and turns
 * startup errors into one readable line and a non-zero exit.
 */
import "reflect-metadata";
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { cac } from "cac";
import { messageOf } from "svc/plugin";
import { resolveRunConfig, type RunFlags } from "./run-settings.js";
import { serve } from "./serve.js";
import { runPrimary } from "./workers.js";
import { runWithReload } from "./reload.js";
import { ensurePortFree } from "./port-check.js";
import { registerStatusCommand } from "./status.js";
import { pipelineHelp, registerPipelineCommand } from "./pipeline.js";
import { registerMcpCommand } from "./mcp.js";
import { registerA2aCommand } from "./a2a.js";
import { registerDashboardCommand } from "./dashboard/index.js";
import { registerAuthCommand } from "./auth.js";
import { registerRunsCommand } from "./runs.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

const cli = cac("svc");

cli
  .command("run", "Serve the pipelines directory over HTTP")
  .option("--host <host>", "Bind host (default: localhost, SERVICE_HOST)")
  .option("--port <port>", "HTTP port (default: 1416, SERVICE_PORT)")
  .option("--workers <n>", "Worker processes serving one port (default: 1)")
  .option("--pipelines-dir <dir>", "Pipelines directory, auto-deployed at startup (default: ./pipelines)")
  .option("--additional-module-path, --additional-python-path <dir>", "Extra resolution root for shared wrapper code")
  .option("--root-path <path>", "Path prefix when served behind a proxy (default: /)")
  .option("--reload", "Restart when the server's own code changes (development only)")
  .option("--without-tracing", "Do not mount the local trace API")
  .option("--without-monitoring", "Do not run the execution index")
  .option("--without-metrics", "Do not serve Prometheus metrics at /metrics")
  .option("--with-chat-ui", "Serve the embedded chat UI at /chat")
  .option("--plugin <spec>", "Load a plugin: a path or a package (repeatable)", { type: [String] })
  .action(async (flags: RunFlags) => {
    const cwd = process.cwd();
    const config = resolveRunConfig(flags, cwd, process.env);
    // .env values become environment for what reads it directly (OpenTelemetry, workers, children).
    for (const [k, v] of Object.entries(config.dotenv)) process.env[k] ??= v;
    // A port in use is reported now, not after every pipeline was deployed.
    if (cluster.isPrimary) await ensurePortFree(config.settings.host, config.settings.port);
    if (flags.reload && cluster.isPrimary) return runWithReload(config.settings, process.argv.slice(2), cwd);
    if (config.settings.workers > 1 && cluster.isPrimary) return runPrimary(config.settings);
    await serve(config, cwd);
  });

registerStatusCommand(cli);
registerPipelineCommand(cli);
registerMcpCommand(cli);
registerA2aCommand(cli);
registerDashboardCommand(cli);
registerAuthCommand(cli);
registerRunsCommand(cli);

cli.help(pipelineHelp(cli));
cli.version(pkg.version);

async function main(): Promise<void> {
  try {
    cli.parse(process.argv, { run: false });
    if (!cli.matchedCommand) {
      // Help or version was printed (cac unsets the command then, even with arguments: `pipeline run --help`).
      if (cli.options.help || cli.options.version) return;
      if (cli.args.length > 0) {
        process.stderr.write(`Error: unknown command '${cli.args[0]}'\n\n`);
        cli.outputHelp();
        process.exitCode = 1;
      } else {
        cli.outputHelp();
      }
      return;
    }
    await cli.runMatchedCommand();
  } catch (error) {
    const name = (error as Error)?.name;
    process.stderr.write(`Error: ${messageOf(error)}\n`);
    if (name === "CACError") {
      process.stderr.write("\n");
      cli.outputHelp();
    }
    process.exit(1);
  }
}

await main();
