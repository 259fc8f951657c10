/**
 * @module Where `POST /v1/files` keeps uploads: the FileStore protocol, the file record (OpenAI's
 * file object plus the content type), and the default store: in memory, bounded in total bytes,
 * each file living `ttl` seconds. Expired files are dropped lazily, on the next store operation,
 * so the store needs no timer.
 */
import { randomBytes } from "node:crypto";
import { HttpError } from "svc/plugin";

/** What the store knows of a file; the wire form is `fileObject(record)`. */
export interface FileRecord {
  readonly id: string;
  readonly filename: string;
  readonly purpose: string;
  readonly bytes: number;
  /** Unix seconds. */
  readonly created_at: number;
  /** Unix seconds, or null for a file kept until deleted. */
  readonly expires_at: number | null;
  readonly content_type: string;
  /** The principal id of the uploader (svc:auth: its key); absent for uploads made without auth. */
  readonly owner?: string;
}

export interface NewFile {
  readonly filename: string;
  readonly purpose: string;
  readonly contentType: string;
  readonly data: Buffer;
  readonly owner?: string;
}

export interface FileStore {
  /** `memory` or `object-store`, for logs and docs. */
  readonly kind: string;
  put(file: NewFile): Promise<FileRecord>;
  /** The record, or undefined when the id is unknown or expired. */
  info(id: string): Promise<FileRecord | undefined>;
  /** The record and the bytes, or undefined when the id is unknown or expired. */
  read(id: string): Promise<{ record: FileRecord; data: Buffer } | undefined>;
  /** Every live file, oldest first. */
  list(): Promise<FileRecord[]>;
  delete(id: string): Promise<boolean>;
}

/** OpenAI's file object. */
export function fileObject(record: FileRecord) {
  const { id, bytes, created_at, filename, purpose, expires_at } = record;
  return { id, object: "file" as const, bytes, created_at, filename, purpose, status: "processed" as const, expires_at, status_details: null };
}

/** A new record: `file-` and 24 hex digits, as OpenAI's ids look. */
export function newRecord(file: NewFile, ttlSeconds: number, nowMs = Date.now()): FileRecord {
  const created = Math.floor(nowMs / 1000);
  return {
    id: `file-${randomBytes(12).toString("hex")}`,
    filename: file.filename,
    purpose: file.purpose,
    bytes: file.data.length,
    created_at: created,
    expires_at: ttlSeconds > 0 ? created + ttlSeconds : null,
    content_type: file.contentType,
    ...(file.owner === undefined ? {} : { owner: file.owner }),
  };
}

export const isExpired = (record: FileRecord, nowMs = Date.now()): boolean => record.expires_at !== null && record.expires_at * 1000 <= nowMs;

/** The default store: this process's memory, at most `maxTotalBytes`, files expiring after `ttlSeconds`. */
export class MemoryFileStore implements FileStore {
  readonly kind = "memory";
  private readonly files = new Map<string, { record: FileRecord; data: Buffer }>();
  private total = 0;

  constructor(
    private readonly maxTotalBytes: number,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes held by live files. */
  get usedBytes(): number {
    this.sweep();
    return this.total;
  }

  async put(file: NewFile): Promise<FileRecord> {
    this.sweep();
    if (this.total + file.data.length > this.maxTotalBytes) {
      throw new HttpError(
        413,
        `The file store is full: ${this.total} of ${this.maxTotalBytes} bytes are in use (SERVICE_FILES_MAX_TOTAL_BYTES). Delete files or wait for them to expire.`,
      );
    }
    const record = newRecord(file, this.ttlSeconds, this.now());
    this.files.set(record.id, { record, data: file.data });
    this.total += file.data.length;
    return record;
  }

  async info(id: string): Promise<FileRecord | undefined> {
    return (await this.read(id))?.record;
  }

  async read(id: string): Promise<{ record: FileRecord; data: Buffer } | undefined> {
    const entry = this.files.get(id);
    if (!entry) return undefined;
    if (isExpired(entry.record, this.now())) {
      this.remove(id);
      return undefined;
    }
    return entry;
  }

  async list(): Promise<FileRecord[]> {
    this.sweep();
    return [...this.files.values()].map((e) => e.record);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.read(id)) !== undefined && this.remove(id);
  }

  private remove(id: string): boolean {
    const entry = this.files.get(id);
    if (!entry) return false;
    this.files.delete(id);
    this.total -= entry.data.length;
    return true;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, { record }] of this.files) if (isExpired(record, now)) this.remove(id);
  }
}
