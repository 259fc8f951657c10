/**
 * @module The Fastify 5 bench target of the CPU-per-request table (bench/cpu.ts): the work a
 * hand-built service does for `POST /adder/run` — the body checked by an ajv-compiled JSON Schema
 * (Fastify's own validator), a UUID request id echoed as `x-request-id`, and a prom-client request
 * counter and latency histogram — with nothing else. Prints its port on stdout.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { Counter, Histogram, Registry } from "prom-client";

export async function fastifyTarget(): Promise<void> {
  const registry = new Registry();
  const requests = new Counter({ name: "http_requests_total", help: "Requests answered.", labelNames: ["route", "method", "status"], registers: [registry] });
  const seconds = new Histogram({ name: "http_request_duration_seconds", help: "Request latency.", labelNames: ["route", "method"], registers: [registry] });

  const app = Fastify({ logger: false, genReqId: (req) => (req.headers["x-request-id"] as string | undefined) ?? randomUUID() });
  app.addHook("onRequest", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });
  app.addHook("onResponse", async (req, reply) => {
    const route = req.routeOptions.url ?? "unmatched";
    requests.inc({ route, method: req.method, status: reply.statusCode });
    seconds.observe({ route, method: req.method }, reply.elapsedTime / 1000);
  });
  app.post<{ Body: { a: number; b: number } }>(
    "/adder/run",
    { schema: { body: { type: "object", required: ["a", "b"], properties: { a: { type: "number" }, b: { type: "number" } } } } },
    async (req) => ({ result: req.body.a + req.body.b }),
  );
  app.get("/metrics", async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  await app.listen({ host: "127.0.0.1", port: 0 });
  console.log((app.server.address() as AddressInfo).port);
}
