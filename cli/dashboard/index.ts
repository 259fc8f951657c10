/**
 * @module `svc dashboard [--traces N] [--interval 2] [--url URL]…`: the terminal trace viewer. The
 * server is the one the other client commands talk to (SERVICE_HOST and SERVICE_PORT from the
 * environment, `.env` or the config file) unless `--url` names another; `--url` repeated follows
 * several instances and merges their traces, marking each with its instance.
 */
import type { CAC } from "cac";
import * as v from "valibot";
import { dashboardTokenPath, loadSettings, readConfigFile, readDashboardToken, readDotEnv } from "svc/internal";
import { cliSettings } from "../cli-settings.js";
import { CliError, UsageError, runClientCommand, serverUrl } from "../client.js";
import { colorOn } from "../output.js";
import { runDashboard } from "./app.js";
import { operatorCredential } from "./credentials.js";
import { Terminal } from "./terminal.js";

export interface DashboardFlags {
  traces?: string | number;
  interval?: string | number;
  url?: string | string[];
}

const MAX_TRACES = 100;

const tracesFlag = v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))]), v.integer(), v.minValue(1), v.maxValue(MAX_TRACES));
const intervalFlag = v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number))]), v.minValue(0.2), v.maxValue(3600));
const urlFlag = v.pipe(v.string(), v.url(), v.check((u) => /^https?:$/.test(new URL(u).protocol) && !new URL(u).username && !new URL(u).password));

export interface DashboardConfig {
  readonly url: string;
  /** Every instance followed (the first is `url`). */
  readonly urls: readonly string[];
  readonly limit?: number;
  readonly intervalSec: number;
  readonly explicitToken?: string;
}

/** The viewer's settings from its flags and the working directory's settings sources. */
export function dashboardConfig(flags: DashboardFlags, cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): DashboardConfig {
  const traces = flags.traces === undefined ? undefined : v.safeParse(tracesFlag, flags.traces);
  if (traces && !traces.success) throw new UsageError(`--traces must be an integer from 1 to ${MAX_TRACES}, got '${flags.traces}'`);
  const interval = v.safeParse(intervalFlag, flags.interval ?? 2);
  if (!interval.success) throw new UsageError(`--interval must be a number of seconds from 0.2 to 3600, got '${flags.interval}'`);
  const given = flags.url === undefined ? [] : Array.isArray(flags.url) ? flags.url : [flags.url];
  for (const url of given) {
    if (!v.safeParse(urlFlag, url).success) throw new UsageError(`--url must be an http(s) URL without credentials, such as http://localhost:1416, got '${url}'`);
  }
  const config = readConfigFile(cwd);
  const sources = { config: config && { file: config.file, values: config.settings }, dotenv: readDotEnv(cwd) ?? {}, env };
  const settings = loadSettings(sources, cliSettings, { unknown: false });
  const urls = [...new Set((given.length ? given : [serverUrl(cwd, env)]).map((u) => u.replace(/\/+$/, "")))];
  return {
    url: urls[0]!,
    urls,
    limit: traces?.output,
    intervalSec: interval.output,
    explicitToken: settings.dashboardToken,
  };
}

export async function dashboard(flags: DashboardFlags): Promise<void> {
  await runClientCommand(async () => {
    const config = dashboardConfig(flags);
    if (!process.stdin.isTTY || !process.stdout.isTTY) throw new CliError("svc dashboard needs an interactive terminal (stdin and stdout must be a TTY).");
    await runDashboard({
      url: config.urls.join(", "),
      urls: config.urls,
      limit: config.limit,
      intervalSec: config.intervalSec,
      color: colorOn(process.stdout),
      terminal: new Terminal(),
      credential: (url) =>
        operatorCredential(url, {
          explicit: config.explicitToken,
          credentialFile: () => dashboardTokenPath(process.env),
          readCredential: (file) => readDashboardToken(file),
        }),
    });
  });
}

export function registerDashboardCommand(cli: CAC): void {
  cli
    .command("dashboard", "Terminal trace viewer: polls GET /traces of the configured server")
    .option("--traces <n>", "Traces per snapshot, 1 to 100 (default: the server's SERVICE_TRACING_DEFAULT_LIMIT)")
    .option("--interval <seconds>", "Seconds between refreshes (default: 2)")
    .option("--url <url>", "Server URL (default: http://SERVICE_HOST:SERVICE_PORT); repeat to follow several instances", { type: [String] })
    .action(dashboard);
}
