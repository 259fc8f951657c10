/**
 * @module Test helpers: a kernel listening on a random loopback port with its log captured.
 */
import { createKernel, Logger, type Kernel, type KernelOptions, type LogLevel } from "svc/plugin";

export interface TestKernel {
  kernel: Kernel;
  url: string;
  logs: string[];
  close(): Promise<void>;
}

export function captureLogger(level: LogLevel = "DEBUG"): { logger: Logger; logs: string[] } {
  const logs: string[] = [];
  return { logger: new Logger(level, (line) => logs.push(line)), logs };
}

export async function startKernel(options: KernelOptions = {}): Promise<TestKernel> {
  const { logger, logs } = captureLogger();
  const kernel = await createKernel({ logger, ...options, settings: { host: "127.0.0.1", port: 0, ...options.settings } });
  const address = await kernel.listen();
  return { kernel, url: `http://127.0.0.1:${address.port}`, logs, close: () => kernel.close() };
}
