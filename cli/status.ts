/**
 * @module `svc status`: `GET /status` on the configured server; prints that it is up and a table
 * of the deployed pipelines, or a notice that none are.
 */
import type { CAC } from "cac";
import { CliError, SvcClient, runClientCommand } from "./client.js";
import { print, success, table, warn } from "./output.js";

interface StatusResponse {
  status?: string;
  pipelines?: unknown;
}

export async function status(flags: { url?: string } = {}): Promise<void> {
  await runClientCommand(async () => {
    const client = SvcClient.fromSettings(process.cwd(), flags.url);
    const body = await client.json<StatusResponse>("GET", "/status");
    if (!Array.isArray(body.pipelines)) throw new CliError(`Unexpected answer from ${client.url}/status: no pipeline list`);
    success(`svc is up and running at ${client.url}`);
    const names = body.pipelines.map(String);
    if (names.length === 0) {
      warn("No pipelines currently deployed", process.stdout);
      return;
    }
    print("Pipelines:");
    print(table(["№", "Name", "Status"], names.map((name, i) => [String(i + 1), name, "Active"])));
  });
}

export function registerStatusCommand(cli: CAC): void {
  cli
    .command("status", "Show whether svc is running (--url, or SERVICE_HOST:SERVICE_PORT) and which pipelines are deployed")
    .option("--url <url>", "The server, e.g. http://10.0.0.5:1416 (default: http://SERVICE_HOST:SERVICE_PORT)")
    .action((flags: { url?: string }) => status(flags));
}
