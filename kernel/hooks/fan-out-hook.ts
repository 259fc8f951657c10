/**
 * @module FanOutHook (the `trace` hook): plugins install tracers; the kernel's proxy tracer fans spans out to all of
 * them and is a no-op until the first one is installed, so no code branches on "is tracing on".
 */
import { ProxyTracer, type Tracer } from "./tracer.js";

export class FanOutHook {
  readonly tracer = new ProxyTracer();
  private readonly installed: { plugin: string; tracer: Tracer }[] = [];

  constructor(readonly name: string) {}

  tap(plugin: string, tracer: Tracer): void {
    this.installed.push({ plugin, tracer });
    this.tracer.use(this.installed.map((t) => t.tracer));
  }
}
