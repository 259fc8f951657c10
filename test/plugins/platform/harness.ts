/**
 * @module What the platform tool tests share: registry tools built against the loopback platform
 * fixture (key `alice-key`, workspace `default`, a memory store), a call that returns text and
 * error flag, and reading back what a call stored.
 */
import { MemoryBackend, ObjectStore } from "svc/object-store";
import { TOOL_REGISTRY, buildTool, type BuildToolOptions, type PlatformTool, type ToolConfig } from "svc/platform";
import type { PlatformFixture, RecordedRequest } from "../../fixtures/platform-server.js";

export interface Outcome {
  text: string;
  isError: boolean;
}

export interface Harness {
  store: ObjectStore;
  tool(name: string, options?: BuildToolOptions, config?: Partial<ToolConfig>): PlatformTool;
  call(t: PlatformTool, args?: Record<string, unknown>, headers?: Record<string, string>): Promise<Outcome>;
  /** Calls a registry tool by name (default options) and reads back the object it stored. */
  stored(name: string, args?: Record<string, unknown>): Promise<any>;
  /** The requests the platform received since `mark` (its length before the call). */
  since(mark: number): RecordedRequest[];
}

export const refOf = (text: string) => /^(@obj_\w+)/.exec(text)![1]!;

/** The request as the platform saw it, for exact comparisons. */
export const sent = (r: RecordedRequest) => ({ method: r.method, path: r.path, query: r.query, body: r.body });

export function harness(platform: () => PlatformFixture): Harness {
  const store = new ObjectStore(new MemoryBackend());
  const tool: Harness["tool"] = (name, options = {}, config = {}) => {
    const entry = TOOL_REGISTRY.get(name)!;
    return buildTool(entry.base, { ...entry.config, ...config, customArgs: { ...entry.config.customArgs, ...config.customArgs } }, {
      apiKey: "alice-key",
      workspace: "default",
      baseUrl: platform().url,
      useRequestContext: false,
      objectStore: store,
      ...options,
    });
  };
  const call: Harness["call"] = async (t, args = {}, headers = {}) => {
    const r: any = await t.handler(args, { headers });
    return typeof r === "string" ? { text: r, isError: false } : { text: r.content[0].text, isError: r.isError === true };
  };
  const stored: Harness["stored"] = async (name, args = {}) => {
    const out = await call(tool(name), args);
    if (out.isError) throw new Error(`${name} failed: ${out.text}`);
    return store.get(refOf(out.text).slice(1));
  };
  return { store, tool, call, stored, since: (mark) => platform().requests.slice(mark) };
}
