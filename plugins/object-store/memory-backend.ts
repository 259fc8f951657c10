/**
 * @module The in-process backend: a keyv over a Map. Ids count up per backend (`obj_001`,
 * `obj_002`, … `obj_999`, `obj_1000`) and are never reused; keyv drops an expired entry when it
 * is read.
 */
import { Keyv } from "keyv";
import type { ObjectStoreBackend } from "svc/plugin";

export class MemoryBackend implements ObjectStoreBackend {
  readonly kind = "memory";
  private counter = 0;
  private readonly keyv = new Keyv<string>({ store: new Map() });

  generateId(): string {
    this.counter += 1;
    return `obj_${String(this.counter).padStart(3, "0")}`;
  }

  async set(id: string, value: string, ttlSeconds?: number): Promise<void> {
    await this.keyv.set(id, value, ttlSeconds ? ttlSeconds * 1000 : undefined);
  }

  async get(id: string): Promise<string | undefined> {
    return (await this.keyv.get(id)) ?? undefined;
  }

  delete(id: string): Promise<boolean> {
    return this.keyv.delete(id);
  }

  async close(): Promise<void> {
    await this.keyv.clear();
  }
}
