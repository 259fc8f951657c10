/**
 * @module `svc runs list|get|watch|cancel`: the background runs of svc:runs (docs/runs.md) through
 * the REST runs API. `list` is a table (newest first; `--pipeline`, `--status`, `--limit`,
 * `--cursor` for the next page), `get` shows one run, `watch` follows its events
 * (runs-watch.ts), `cancel` stops it. `--json` prints the server's JSON as it is. (cac matches no
 * multi-word command, so `runs <action>` dispatches, like `pipeline <action>`.)
 */
import type { CAC } from "cac";
import { SvcClient, UsageError, runClientCommand } from "./client.js";
import { booleanFlag, stringFlag } from "./flags.js";
import { formatValue, print, success, table, warn } from "./output.js";
import { watchRun } from "./runs-watch.js";

/** A run as `GET /runs/{id}` answers it (the fields the commands show). */
export interface RunView {
  id: string;
  pipeline: string;
  kind: string;
  owner: string | null;
  status: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  result: unknown;
  error: { message: string; code: string } | null;
  cancel_requested: boolean;
}

interface RunPage {
  runs: RunView[];
  has_more: boolean;
  next_cursor: string | null;
}

const ACTIONS = {
  list: { id: false, options: ["pipeline", "status", "limit", "cursor", "json"] },
  get: { id: true, options: ["json"] },
  watch: { id: true, options: ["json"] },
  cancel: { id: true, options: ["json"] },
} as const;
type Action = keyof typeof ACTIONS;

const runPath = (id: string) => `/runs/${encodeURIComponent(id)}`;

/** `2026-11-27T08:46:16.123Z` → `2026-11-27 08:46:16`. */
const shortTime = (iso: string | null) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "-");

function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

async function listRuns(client: SvcClient, flags: Record<string, unknown>): Promise<void> {
  const query = new URLSearchParams();
  for (const key of ["pipeline", "status", "limit", "cursor"]) {
    const value = stringFlag(flags, key);
    if (value !== undefined) query.set(key, value);
  }
  const page = await client.json<RunPage>("GET", `/runs${query.size ? `?${query}` : ""}`);
  if (booleanFlag(flags, "json")) return printJson(page);
  if (page.runs.length === 0) {
    warn("No runs", process.stdout);
    return;
  }
  print(table(["ID", "Pipeline", "Status", "Created", "Ended"], page.runs.map((r) => [r.id, r.pipeline, r.status, shortTime(r.created_at), shortTime(r.ended_at)])));
  if (page.has_more && page.next_cursor) print(`More runs: add --cursor ${page.next_cursor}`);
}

function showRun(run: RunView): void {
  const rows: [string, string][] = [
    ["ID", run.id],
    ["Pipeline", run.pipeline],
    ["Status", run.status + (run.cancel_requested && run.status === "in_progress" ? " (cancel requested)" : "")],
    ["Kind", run.kind],
    ...(run.owner ? ([["Owner", run.owner]] as [string, string][]) : []),
    ["Created", shortTime(run.created_at)],
    ["Started", shortTime(run.started_at)],
    ["Ended", shortTime(run.ended_at)],
    ...(run.error ? ([["Error", `${run.error.message} (${run.error.code})`]] as [string, string][]) : []),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  print(rows.map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${v}`).join("\n"));
  if (run.status === "completed") print(`Result:\n${formatValue(run.result)}`);
}

async function cancelRun(client: SvcClient, id: string, json: boolean): Promise<void> {
  const run = await client.json<RunView>("POST", `${runPath(id)}/cancel`);
  if (json) return printJson(run);
  if (run.status === "cancelled") success(`Run ${run.id} cancelled`);
  else if (run.status === "in_progress" || run.status === "queued") warn(`Cancel requested: run ${run.id} is still ${run.status}; \`svc runs get ${run.id}\` shows when it stops`, process.stdout);
  else warn(`Run ${run.id} ended ${run.status} before the cancel reached it`, process.stdout);
}

export async function runsCommand(action: string, id: string | undefined, flags: Record<string, unknown>): Promise<void> {
  if (!(action in ACTIONS)) throw new UsageError(`unknown runs action '${action}' (expected one of: ${Object.keys(ACTIONS).join(", ")})`);
  const spec = ACTIONS[action as Action];
  if (spec.id && !id) throw new UsageError(`missing <id> for \`svc runs ${action} <id>\``);
  if (!spec.id && id) throw new UsageError(`unexpected argument: ${id} (\`svc runs ${action}\` takes no id)`);
  for (const key of ["pipeline", "status", "limit", "cursor"]) {
    if (flags[key] !== undefined && !(spec.options as readonly string[]).includes(key)) throw new UsageError(`option \`--${key}\` does not apply to \`svc runs ${action}\``);
  }
  const limit = stringFlag(flags, "limit");
  if (limit !== undefined && !/^[1-9]\d{0,5}$/.test(limit)) throw new UsageError(`--limit must be a positive whole number, not '${limit}'`);
  await runClientCommand(async () => {
    const client = SvcClient.fromSettings(process.cwd(), stringFlag(flags, "url"));
    const json = booleanFlag(flags, "json");
    if (action === "list") return listRuns(client, flags);
    if (action === "get") {
      const run = await client.json<RunView>("GET", runPath(id!));
      return json ? printJson(run) : showRun(run);
    }
    if (action === "watch") return watchRun(client, id!, { json });
    return cancelRun(client, id!, json);
  });
}

export function registerRunsCommand(cli: CAC): void {
  cli
    .command("runs <action> [id]", "Background runs on a running svc: list, get <id>, watch <id>, cancel <id>")
    .usage("runs list [--pipeline NAME] [--status STATUS] [--limit N] [--cursor C] | runs get|watch|cancel <id>")
    .option("--pipeline <name>", "list: only this pipeline's runs")
    .option("--status <status>", "list: only runs in this status (queued, in_progress, completed, failed, cancelled, incomplete)")
    .option("--limit <n>", "list: runs per page (default 20, at most 100)")
    .option("--cursor <cursor>", "list: the next page (the cursor the previous page printed)")
    .option("--json", "Print the server's JSON (watch: one JSON line per event)")
    .option("--url <url>", "The server, e.g. http://10.0.0.5:1416 (default: http://SERVICE_HOST:SERVICE_PORT)")
    .example("svc runs list --pipeline summarize --status failed")
    .example("svc runs watch run_0193c4d2a1b20000a1b2c3d4e5f6   # exits 0 completed, 1 failed, 2 cancelled")
    .action((action: string, id: string | undefined, flags: Record<string, unknown>) => runsCommand(action, id, flags));
}
