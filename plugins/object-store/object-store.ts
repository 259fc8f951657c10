/**
 * @module The JSON object store over a backend. Values are serialised once on `put` (sets and
 * maps become arrays and objects, dates ISO strings) and come back as plain JSON data.
 */
import type { ObjectStore as ObjectStoreProtocol, ObjectStoreBackend } from "svc/plugin";

export const DEFAULT_TTL_SECONDS = 600;

export class ObjectStore implements ObjectStoreProtocol {
  /** `ttl` in seconds; 0 or less keeps objects until deleted. */
  constructor(
    readonly backend: ObjectStoreBackend,
    readonly ttl: number = DEFAULT_TTL_SECONDS,
  ) {}

  async put(value: unknown): Promise<string> {
    const text = toJson(value);
    const id = this.backend.generateId();
    await this.backend.set(id, text, this.ttl > 0 ? this.ttl : undefined);
    return id;
  }

  async get(id: string): Promise<unknown> {
    const text = await this.backend.get(id);
    return text === undefined ? undefined : JSON.parse(text);
  }

  delete(id: string): Promise<boolean> {
    return this.backend.delete(id);
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

/** JSON text of `value`; throws a TypeError naming what cannot be stored. */
export function toJson(value: unknown): string {
  const text = JSON.stringify(value === undefined ? null : value, (_key, v: unknown) => {
    if (v instanceof Set) return [...v];
    if (v instanceof Map) return Object.fromEntries(v);
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "function" || typeof v === "symbol") throw new TypeError(`Cannot store a ${typeof v} in the object store`);
    if (v instanceof Uint8Array) throw new TypeError("Cannot store binary data in the object store");
    return v;
  });
  return text;
}
