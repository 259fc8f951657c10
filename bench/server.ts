/**
 * @module A benchmark target in its own process: `bare` (plain node:http, the baseline) or `svc`
 * (the kernel with one plugin). Prints its port on stdout.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createKernel, definePlugin, Logger } from "svc";

const kind = process.argv[2];

async function main(): Promise<void> {
  if (kind === "bare") {
    const server = createServer((req, res) => {
      if (req.method === "POST") {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const body = JSON.stringify({ got: JSON.parse(Buffer.concat(chunks).toString()) });
          res.writeHead(200, { "content-type": "application/json" }).end(body);
        });
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
    });
    server.listen(0, "127.0.0.1", () => console.log((server.address() as AddressInfo).port));
    return;
  }
  const bench = definePlugin({
    name: "bench",
    setup(k) {
      k.route("GET", "/ping", () => ({ ok: true }));
      k.route("POST", "/echo", async (c) => ({ got: await c.json() }));
    },
  });
  const kernel = await createKernel({
    settings: { host: "127.0.0.1", port: 0 },
    plugins: [bench],
    logger: new Logger("ERROR"),
  });
  console.log((await kernel.listen()).port);
}

await main();
