/**
 * @module What a deploy asks for, and what staging makes of it: the types shared by the deploy
 * service, the source stagings and the cluster follower.
 */
import type { RunLimits } from "../wrapper/run-limits.js";
import type { Installed } from "./pipeline-files.js";

export interface DeployRequest {
  /** The source kind: `files` (a wrapper folder) or `yaml`, or one a plugin handles. */
  readonly kind: string;
  readonly name: string;
  readonly description?: string;
  readonly overwrite?: boolean;
  /** Keep the files in the pipelines directory (default true). */
  readonly save?: boolean;
  /** Overrides the wrapper's own `skipMcp`. */
  readonly skipMcp?: boolean;
  /** Override the wrapper's own run limits, field by field. */
  readonly limits?: RunLimits;
  /** `files`: relative path → content. */
  readonly files?: Readonly<Record<string, string | Buffer>>;
  /** `yaml`: the YAML text. */
  readonly source?: string;
  /** Deploy what is already on disk (startup): a folder for `files`, a file for `yaml`. */
  readonly path?: string;
}

/** Files put where a source handler reads them, not yet committed. */
export interface Staged {
  readonly payload: unknown;
  readonly installed?: Installed;
  readonly tempDir?: string;
}

/** How an installed pipeline treats the saved files of its earlier version. */
export type SavedFiles = "keep" | "others" | "all";
