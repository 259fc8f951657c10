/**
 * @module DeployState: the set of deployed pipelines as a manifest (name → version, kind, sources,
 * options) that every process serving one service agrees on. One process keeps it in memory
 * (`LocalDeployState`); `--workers N` keeps it in the primary (`WorkerDeployState`); several hosts
 * keep it in Redis (`RedisDeployState`). The deploy service asks it for the 409/404 rules and
 * applies the changes it announces; each process loads pipelines itself.
 */
import type { RunLimits } from "../wrapper/run-limits.js";

export interface ManifestEntry {
  readonly name: string;
  /** The sequence number of the change that wrote it, increasing across the whole manifest (and, in Redis, across data losses). */
  readonly version: number;
  /** The deploy source kind: `files`, `yaml`, … */
  readonly kind: string;
  readonly description?: string;
  readonly skipMcp?: boolean;
  /** The deploy request's run limits. */
  readonly limits?: RunLimits;
  /** Keep the files in the pipelines directory. */
  readonly save: boolean;
  /** `files`: relative path → base64 content (shared states only). */
  readonly files?: Readonly<Record<string, string>>;
  /** `yaml`: the text (shared states only). */
  readonly source?: string;
  /** sha256 of the content, to recognise the same files already on disk ("" when not kept). */
  readonly digest: string;
  /** The instance that made the change. */
  readonly origin: string;
  readonly deployedAt: string;
}

/** An entry as written: the state assigns the version. */
export type ManifestWrite = Omit<ManifestEntry, "version">;

export type PutResult = { readonly version: number } | { readonly conflict: "exists" };
export type RemoveResult = { readonly version: number } | { readonly conflict: "missing" };

/** What `GET /status` reports about the deploy state. */
export interface ClusterHealth {
  /** `single` (one process), `workers` (`--workers N` on one host), `redis` (several hosts). */
  readonly mode: "single" | "workers" | "redis";
  readonly instance: string;
  /** Changes can be made now (false while Redis is unreachable). */
  readonly connected: boolean;
  /** Where the manifest lives, without credentials. */
  readonly store?: string;
  readonly error?: string;
}

/**
 * Called with the name of a pipeline that changed elsewhere, or with nothing when every name must be
 * checked (after a reconnect). The promise settles once this process applied it.
 */
export type ChangeListener = (name: string | undefined) => Promise<void> | void;

export interface DeployState {
  /** Other processes read it: entries carry their content and changes are announced. */
  readonly shared: boolean;
  /** The processes share one pipelines directory (workers on one host): only the deploying one writes there. */
  readonly sharedDisk: boolean;
  /** Reads; a store that cannot be reached throws a 503 HttpError. */
  get(name: string): Promise<ManifestEntry | undefined>;
  list(): Promise<ManifestEntry[]>;
  /** Name → version of every entry, without the content: the cheap read of periodic checks. */
  versions(): Promise<Map<string, number>>;
  /** `create` refuses an existing name; `replace` always writes. Atomic per name. */
  put(entry: ManifestWrite, mode: "create" | "replace"): Promise<PutResult>;
  remove(name: string): Promise<RemoveResult>;
  /**
   * True once after the store lost its data (a Redis restarted without persistence): the caller
   * then writes back what it serves (`restore`) so the cluster keeps its pipelines.
   */
  lostData?(): Promise<boolean>;
  /**
   * Writes entries back after a loss with the versions they had; per name the greater version (the
   * newer change) wins over what another process wrote back. Resolves with how many were written.
   */
  restore?(entries: readonly ManifestEntry[]): Promise<number>;
  /**
   * Waits until no other process is changing `name`, then holds it for this one until `settled`: a
   * state whose processes share one pipelines directory (the workers' primary) serializes their
   * changes of a name from staging to serving.
   */
  acquire?(name: string): Promise<void>;
  /** The change this process made to `name` is now served here (or failed): the next may start. */
  settled?(name: string): void;
  /** Starts announcing changes made by other processes. */
  follow(listener: ChangeListener): void;
  health(): ClusterHealth;
  close(): Promise<void>;
}
