/**
 * @module Checks that `svc run` can bind its port before it loads plugins and deploys the pipelines
 * folder, so a port in use is reported at once, with what to do, instead of as a raw EADDRINUSE
 * after every pipeline was deployed.
 */
import { createServer } from "node:net";

export function portProblem(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === "EADDRINUSE") {
    return new Error(`Port ${port} on ${host} is already in use (another svc, or another program). Stop it, or choose another port: --port <n> (or SERVICE_PORT).`);
  }
  if (error.code === "EACCES") return new Error(`Port ${port} on ${host} needs privileges this user lacks: choose a port above 1023 with --port <n>.`);
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") return new Error(`Cannot bind to ${host}: it is not an address of this machine (--host).`);
  return error;
}

/** Resolves when `host:port` can be bound (it is bound and released at once); rejects with what to do. */
export async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => reject(portProblem(error, host, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
