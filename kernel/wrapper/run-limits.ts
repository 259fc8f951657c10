/**
 * @module Per-pipeline run limits: how many runs of one pipeline may execute at once
 * (`max_concurrency`) and how long one may take (`timeout_seconds`). A wrapper sets them as static
 * fields (`static maxConcurrency = 2`), a deploy request as fields of its body, which win; the
 * svc:limits plugin enforces them (with the service-wide defaults) on every transport.
 */
import * as v from "valibot";
import { HttpError } from "../errors.js";

export interface RunLimits {
  /** Runs of this pipeline at once; further calls wait in a bounded queue, then get 429. */
  readonly maxConcurrency?: number;
  /** A run's time limit: its signal is aborted and the caller gets 504. */
  readonly timeoutSeconds?: number;
}

const MaxConcurrency = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000));
const TimeoutSeconds = v.pipe(v.number(), v.gtValue(0), v.maxValue(7 * 24 * 3600));

export const maxConcurrencyField = v.optional(v.pipe(MaxConcurrency, v.description("Runs of this pipeline at once (overrides the wrapper's `maxConcurrency`); more wait, then get 429.")));
export const timeoutSecondsField = v.optional(v.pipe(TimeoutSeconds, v.description("A run's time limit in seconds (overrides the wrapper's `timeoutSeconds`); then 504.")));

/** The limits a deploy body names (`max_concurrency`, `timeout_seconds`), or undefined for none. */
export function bodyLimits(body: { max_concurrency?: number; timeout_seconds?: number }): RunLimits | undefined {
  if (body.max_concurrency === undefined && body.timeout_seconds === undefined) return undefined;
  return { maxConcurrency: body.max_concurrency, timeoutSeconds: body.timeout_seconds };
}

/** A wrapper class's static `maxConcurrency` / `timeoutSeconds`, checked (400 naming the field). */
export function wrapperLimits(Wrapper: { maxConcurrency?: unknown; timeoutSeconds?: unknown }): RunLimits | undefined {
  const check = (field: string, value: unknown, schema: v.GenericSchema<number>, wants: string) => {
    if (value === undefined) return undefined;
    if (!v.is(schema, value)) throw new HttpError(400, `PipelineWrapper.${field} must be ${wants}, got ${JSON.stringify(value) ?? typeof value}`);
    return value;
  };
  const maxConcurrency = check("maxConcurrency", Wrapper.maxConcurrency, MaxConcurrency, "a whole number from 1");
  const timeoutSeconds = check("timeoutSeconds", Wrapper.timeoutSeconds, TimeoutSeconds, "a number of seconds above 0");
  return maxConcurrency === undefined && timeoutSeconds === undefined ? undefined : { maxConcurrency, timeoutSeconds };
}

/** `over`'s limits where it sets them, else `base`'s. */
export function mergeLimits(base: RunLimits | undefined, over: RunLimits | undefined): RunLimits | undefined {
  if (!over) return base;
  if (!base) return over;
  return { maxConcurrency: over.maxConcurrency ?? base.maxConcurrency, timeoutSeconds: over.timeoutSeconds ?? base.timeoutSeconds };
}
