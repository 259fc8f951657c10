/**
 * @module Completion webhooks of runs: a run created with `webhook_url` (checked against the
 * allow-list at creation) is POSTed to it once it is final, by the process that made it final
 * (the runner's, a canceller's, or the one that failed it when its lease expired): one delivery
 * per run across instances. The body follows the Standard Webhooks shape `{type, timestamp, data}`
 * with the run record without its input and events; `webhook-id` is the run id.
 */
import { HttpError, type Logger, type SettingValues } from "svc/plugin";
import { finalEventType, type RunRecord } from "./run-record.js";
import type { webhookSettings } from "./settings.js";
import { WebhookAllowList } from "./webhook-allow-list.js";
import { deliverWebhook, type WebhookOutcome } from "./webhook-delivery.js";
import { WebhookSigner } from "./webhook-signer.js";

/** Where a run keeps its webhook URL. */
export const WEBHOOK_URL_FIELD = "webhook_url";

/** What a receiver gets: the run without its input, owner id and events. */
export function webhookRun(run: RunRecord) {
  return {
    id: run.id,
    object: "run" as const,
    pipeline: run.pipeline,
    kind: run.kind,
    owner: run.owner,
    status: run.status,
    created_at: run.created_at,
    started_at: run.started_at,
    ended_at: run.ended_at,
    result: run.result,
    error: run.error,
  };
}

export class RunWebhooks {
  private readonly allowList: WebhookAllowList;
  private readonly signer?: WebhookSigner;
  private readonly stopping = new AbortController();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly settings: SettingValues<typeof webhookSettings>,
    private readonly log: Logger,
  ) {
    this.allowList = new WebhookAllowList(settings.webhookAllowedUrls);
    this.signer = settings.webhookSecret === undefined ? undefined : new WebhookSigner(settings.webhookSecret);
    if (this.allowList.enabled && !this.signer) log.warn("SERVICE_WEBHOOK_ALLOWED_URLS is set but SERVICE_WEBHOOK_SECRET is not: webhooks are refused until a secret is set");
  }

  /** The URL a new run may call back, or a 400 (disabled, no secret, or not allowed). */
  check(url: unknown): string {
    const allowed = this.allowList.check(url, WEBHOOK_URL_FIELD);
    if (!this.signer) throw new HttpError(400, `Invalid request body: ${WEBHOOK_URL_FIELD}: webhooks are disabled on this server (SERVICE_WEBHOOK_SECRET is not set)`);
    return allowed;
  }

  /** Sends the run's webhook in the background, if it has one (called once, by the process that made it final). */
  notify(run: RunRecord): void {
    const url = run.metadata[WEBHOOK_URL_FIELD];
    if (typeof url !== "string" || !this.signer) return;
    const body = JSON.stringify({ type: finalEventType(run.status), timestamp: run.ended_at ?? new Date().toISOString(), data: webhookRun(run) });
    const delivery = deliverWebhook({
      url,
      id: run.id,
      body,
      signer: this.signer,
      maxAttempts: this.settings.webhookMaxAttempts,
      backoffMs: this.settings.webhookRetrySeconds * 1000,
      timeoutMs: this.settings.webhookTimeoutSeconds * 1000,
      signal: this.stopping.signal,
    }).then((outcome) => this.report(run, url, outcome));
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  /** Stops retrying and waits for attempts under way (each within its deadline). */
  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.pending);
  }

  private report(run: RunRecord, url: string, outcome: WebhookOutcome): void {
    const fields = { run: run.id, pipeline: run.pipeline, attempts: outcome.attempts, status: outcome.status };
    if (outcome.delivered) this.log.debug(`Webhook of run ${run.id} delivered`, fields);
    else this.log.warn(`Webhook of run ${run.id} to ${new URL(url).origin} not delivered: ${outcome.error ?? "stopped"}`, fields);
  }
}
