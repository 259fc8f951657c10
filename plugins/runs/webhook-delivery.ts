/**
 * @module Delivering one webhook: a signed JSON POST, retried with exponential backoff (the
 * delay doubles per attempt, capped at five minutes) on a network error, a time-out, 408, 429 or
 * a 5xx, up to a bounded number of attempts. Redirects are not followed (the allow-list names the
 * receiver, not where it points to); another answer is final.
 */
import { messageOf } from "svc/plugin";
import type { WebhookSigner } from "./webhook-signer.js";

const MAX_DELAY_MS = 300_000;

export interface WebhookDelivery {
  readonly url: string;
  /** The message id (`webhook-id`): the same on every attempt. */
  readonly id: string;
  /** The JSON body, sent as it is. */
  readonly body: string;
  /** Signs the body (Standard Webhooks headers); none: sent unsigned. */
  readonly signer?: WebhookSigner;
  /** More headers, over the defaults (another content type, the receiver's credentials). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly maxAttempts: number;
  /** The delay before the first retry (ms); each further one doubles it. */
  readonly backoffMs: number;
  /** Deadline of one attempt (ms). */
  readonly timeoutMs: number;
  /** Stops retrying (shutdown); an attempt under way still ends (within its deadline). */
  readonly signal?: AbortSignal;
}

export interface WebhookOutcome {
  readonly delivered: boolean;
  readonly attempts: number;
  /** The last answer's status, if there was one. */
  readonly status?: number;
  /** Why the last attempt failed. */
  readonly error?: string;
}

/** Sends until a 2xx, a final refusal, the last attempt or the signal; never throws. */
export async function deliverWebhook(delivery: WebhookDelivery): Promise<WebhookOutcome> {
  let last: WebhookOutcome = { delivered: false, attempts: 0 };
  for (let attempt = 1; attempt <= delivery.maxAttempts; attempt++) {
    if (attempt > 1 && !(await sleep(Math.min(delivery.backoffMs * 2 ** (attempt - 2), MAX_DELAY_MS), delivery.signal))) break;
    const { status, error } = await attemptOnce(delivery);
    last = { delivered: status !== undefined && status >= 200 && status < 300, attempts: attempt, status, error };
    if (last.delivered || (status !== undefined && !retriable(status))) break;
  }
  return last;
}

async function attemptOnce(delivery: WebhookDelivery): Promise<{ status?: number; error?: string }> {
  try {
    const res = await fetch(delivery.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "svc-webhooks", ...delivery.headers, ...delivery.signer?.sign(delivery.id, delivery.body) },
      body: delivery.body,
      redirect: "manual",
      signal: AbortSignal.timeout(delivery.timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return res.status >= 300 && res.status < 400 ? { status: res.status, error: "redirects are not followed" } : { status: res.status, error: res.ok ? undefined : `HTTP ${res.status}` };
  } catch (error) {
    return { error: messageOf((error as { cause?: unknown }).cause ?? error) };
  }
}

const retriable = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** False when the signal ended the wait. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
