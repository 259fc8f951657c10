/**
 * @module A benchmark target in its own process: `bare` (plain node:http, the baseline) or `svc`
 * (the kernel with the default plugins and a no-op pipeline). Prints its port on stdout.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKernel, definePlugin, Logger } from "svc";
import managementPlugin from "../plugins/management/index.js";
import runApiPlugin from "../plugins/run-api/index.js";

export const NOOP_WRAPPER = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  runApi(input: Record<string, unknown>) { return input; }
}
`;

const kind = process.argv[2];

// The parent asks for CPU time around each load run: CPU per request is steadier than req/s on a
// shared machine.
process.on("message", (message) => {
  if (message === "cpu") process.send!(process.cpuUsage());
});

/** The bare baseline answers every route the way svc does, with no framework at all. */
function bare(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = req.method === "POST" ? JSON.parse(Buffer.concat(chunks).toString() || "{}") : undefined;
      const out = req.url === "/noop/run" ? { result: body } : req.url === "/echo" ? { got: body } : { ok: true };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  server.listen(0, "127.0.0.1", () => console.log((server.address() as AddressInfo).port));
}

async function svc(): Promise<void> {
  const bench = definePlugin({
    name: "bench",
    setup(k) {
      k.route("GET", "/ping", () => ({ ok: true }));
      k.route("POST", "/echo", async (c) => ({ got: await c.json() }));
    },
  });
  const kernel = await createKernel({
    settings: { host: "127.0.0.1", port: 0, pipelinesDir: join(mkdtempSync(join(tmpdir(), "svc-bench-")), "pipelines") },
    plugins: [managementPlugin(), runApiPlugin(), bench],
    logger: new Logger("ERROR"),
  });
  await kernel.deployer.deploy({ kind: "files", name: "noop", files: { "pipeline_wrapper.ts": NOOP_WRAPPER }, save: false });
  console.log((await kernel.listen()).port);
}

if (kind === "bare") bare();
else if (kind === "svc") await svc();
