/**
 * @module Several instances at once (`--url` repeated): `/traces` is per process, so the viewer
 * polls every instance and merges their snapshots, newest first, each trace marked with the
 * instance (host:port) it came from. Instances that do not answer are named in a notice; the
 * screen shows a problem only when none answers.
 */
import { pollTraces, type PollOptions, type PollResult } from "./poller.js";
import type { Credential } from "./credentials.js";
import type { Snapshot } from "./snapshot.js";

export interface InstancesResult {
  readonly result: PollResult;
  /** Instances that did not answer while others did. */
  readonly missing: readonly string[];
}

export function instanceLabel(url: string): string {
  return new URL(url).host;
}

export async function pollInstances(
  urls: readonly string[],
  options: Omit<PollOptions, "url" | "credential"> & { credential: (url: string) => Promise<Credential> },
): Promise<InstancesResult> {
  if (urls.length === 1) return { result: await pollTraces({ ...options, url: urls[0]!, credential: await options.credential(urls[0]!) }), missing: [] };
  const results = await Promise.all(urls.map(async (url) => ({ url, result: await pollTraces({ ...options, url, credential: await options.credential(url) }) })));
  const answered = results.filter((r): r is { url: string; result: { snapshot: Snapshot } } => "snapshot" in r.result);
  const missing = results.filter((r) => !("snapshot" in r.result)).map((r) => instanceLabel(r.url));
  if (answered.length === 0) return { result: results[0]!.result, missing: [] };
  return { result: { snapshot: mergeSnapshots(answered.map((r) => ({ instance: instanceLabel(r.url), snapshot: r.result.snapshot }))) }, missing };
}

/** One snapshot of several: every trace marked with its instance, newest first. */
export function mergeSnapshots(parts: readonly { instance: string; snapshot: Snapshot }[]): Snapshot {
  const traces = parts
    .flatMap(({ instance, snapshot }) => snapshot.traces.map((t) => ({ ...t, instance })))
    .sort((a, b) => b.start_time_ms - a.start_time_ms);
  return { traces, has_more: parts.some((p) => p.snapshot.has_more), config: parts[0]!.snapshot.config };
}
