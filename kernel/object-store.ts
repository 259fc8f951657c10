/**
 * @module The object-store protocol. Tool outputs too large for a model's context are stored as
 * JSON under an id and handed out as `@obj_<id>` references; the store plugin provides an
 * implementation under the `OBJECT_STORE` token (memory by default, Redis for several processes).
 */

/** Stores raw JSON text under ids it generates; expiry is the backend's job. */
export interface ObjectStoreBackend {
  /** `memory` or `redis`, for logs. */
  readonly kind: string;
  generateId(): string;
  /** Stores `value`; `ttlSeconds` absent or 0 keeps it until deleted. */
  set(id: string, value: string, ttlSeconds?: number): Promise<void>;
  /** The stored text, or `undefined` when the id is unknown or expired. */
  get(id: string): Promise<string | undefined>;
  delete(id: string): Promise<boolean>;
  close(): Promise<void>;
}

/** JSON values under bare ids (`obj_001`); the `@` of a reference is the explorer's business. */
export interface ObjectStore {
  /** Lifetime of new objects in seconds; 0 means no expiry. */
  readonly ttl: number;
  readonly backend: ObjectStoreBackend;
  /** Serialises `value` to JSON and stores it; returns the new id. */
  put(value: unknown): Promise<string>;
  /** The stored value, or `undefined` when the id is unknown or expired (`null` is a stored value). */
  get(id: string): Promise<unknown>;
  delete(id: string): Promise<boolean>;
  close(): Promise<void>;
}
