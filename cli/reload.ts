/**
 * @module `--reload` (development): runs the server in a child process and restarts it when the
 * server's own code (this package's `dist/`), the config file or `.env` changes. The child also
 * follows the pipelines directory (told by `RELOAD_CHILD_ENV`): a wrapper folder or YAML file that
 * changes is redeployed in place, without a restart; one that appears is deployed, one that
 * disappears is undeployed. A change that fails to load is logged and the previous version serves on.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { watch } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_FILE_NAMES } from "svc/internal";
import { Logger } from "svc/plugin";
import type { LauncherSettings } from "./cli-settings.js";

const distDir = fileURLToPath(new URL("../", import.meta.url));

/** Set in the server process `--reload` runs: it then follows the pipelines directory (serve.ts). */
export const RELOAD_CHILD_ENV = "SVC_RELOAD_CHILD";

export function runWithReload(settings: LauncherSettings, args: string[], cwd: string): void {
  const log = Logger.create(settings.logLevel, settings.logFormat);
  const childArgs = args.filter((a) => a !== "--reload");
  let child: ChildProcess | undefined;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let restarting = false;

  const start = () => {
    child = spawn(process.execPath, [fileURLToPath(new URL("./index.js", import.meta.url)), ...childArgs], {
      cwd,
      stdio: "inherit",
      env: { ...process.env, [RELOAD_CHILD_ENV]: "1" },
    });
    const current = child;
    current.on("exit", (code, signal) => {
      if (stopping) process.exit(0);
      if (!restarting) log.warn(`Server exited (code ${code ?? signal}); waiting for changes`);
    });
  };

  const restart = (file: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      log.info(`Change in ${file}: restarting`);
      const old = child;
      if (!old || old.exitCode !== null || old.signalCode !== null) return start();
      restarting = true;
      old.once("exit", () => {
        restarting = false;
        start();
      });
      old.kill("SIGTERM");
    }, 200);
  };

  watch(distDir, { recursive: true }, (_event, file) => file && !file.endsWith(".map") && restart(join("dist", file)));
  const watched = new Set<string>([...CONFIG_FILE_NAMES, ".env"]);
  watch(cwd, (_event, file) => file && watched.has(file) && restart(file));

  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    if (!child || child.exitCode !== null || child.signalCode !== null) process.exit(0);
    child.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  log.info(
    settings.workers > 1
      ? "Reload enabled: watching the server's code, the config file and .env (with --workers, wrapper changes need a redeploy)"
      : "Reload enabled: watching the server's code, the config file, .env, and the pipelines directory (changed pipelines are redeployed)",
  );
  start();
}
