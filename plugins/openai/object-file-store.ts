/**
 * @module Files kept in the object store (svc:object-store, `OBJECT_STORE`): each file is one
 * entry `file-<hex>` (its record and base64 bytes) with the files' TTL, so with the Redis backend
 * every worker and host sees every upload. The list comes from one index entry that each upload
 * and delete rewrites; a file's own entry is the truth, so an index entry lost to two processes
 * writing at once only hides that file from `GET /v1/files`, never from chats.
 */
import type { ObjectStore } from "svc/plugin";
import { isExpired, newRecord, type FileRecord, type FileStore, type NewFile } from "./file-store.js";

const INDEX_KEY = "svc_files_index";

interface Entry {
  record: FileRecord;
  data: string;
}

export class ObjectFileStore implements FileStore {
  readonly kind = "object-store";
  /** Index rewrites of this process, one after another. */
  private indexWrites: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: ObjectStore,
    private readonly ttlSeconds: number,
  ) {}

  async put(file: NewFile): Promise<FileRecord> {
    const record = newRecord(file, this.ttlSeconds);
    const entry: Entry = { record, data: file.data.toString("base64") };
    await this.store.backend.set(record.id, JSON.stringify(entry), this.ttlSeconds || undefined);
    await this.updateIndex((records) => [...records, record]);
    return record;
  }

  async info(id: string): Promise<FileRecord | undefined> {
    return (await this.entry(id))?.record;
  }

  async read(id: string): Promise<{ record: FileRecord; data: Buffer } | undefined> {
    const entry = await this.entry(id);
    return entry && { record: entry.record, data: Buffer.from(entry.data, "base64") };
  }

  async list(): Promise<FileRecord[]> {
    return (await this.index()).filter((r) => !isExpired(r));
  }

  async delete(id: string): Promise<boolean> {
    if (!(await this.entry(id))) return false;
    await this.store.backend.delete(id);
    await this.updateIndex((records) => records.filter((r) => r.id !== id));
    return true;
  }

  private async entry(id: string): Promise<Entry | undefined> {
    // Only our own ids: an `obj_…` value of the object store is not a file.
    if (!/^file-[0-9a-f]{24}$/.test(id)) return undefined;
    const raw = await this.store.backend.get(id);
    if (raw === undefined) return undefined;
    const entry = JSON.parse(raw) as Entry;
    return isExpired(entry.record) ? undefined : entry;
  }

  private async index(): Promise<FileRecord[]> {
    const raw = await this.store.backend.get(INDEX_KEY);
    return raw === undefined ? [] : (JSON.parse(raw) as FileRecord[]);
  }

  private updateIndex(change: (records: FileRecord[]) => FileRecord[]): Promise<void> {
    const write = this.indexWrites.then(async () => {
      const records = change((await this.index()).filter((r) => !isExpired(r)));
      await this.store.backend.set(INDEX_KEY, JSON.stringify(records));
    });
    this.indexWrites = write.catch(() => undefined);
    return write;
  }
}
