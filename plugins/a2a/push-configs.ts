/**
 * @module Push notifications (webhooks) of A2A tasks, as the spec defines them: a client registers
 * a config (URL, token or authentication) with `SendMessage` or `CreateTaskPushNotificationConfig`;
 * the configs live in the task's run (so every instance lists, reads and deletes them), and on
 * each state change (working, then the final state) the instance that made the change POSTs the
 * task to every config: `StreamResponse` JSON for configs registered over v1.0, a v0.3 task for
 * those registered over 0.3 (the SDK's serializers), the token in `X-A2A-Notification-Token` or
 * the authentication as `Authorization`, and, when `SERVICE_WEBHOOK_SECRET` is set, the Standard
 * Webhooks signature headers of run webhooks. A URL must pass the run webhooks' allow-list
 * (`SERVICE_WEBHOOK_ALLOWED_URLS`, from svc/runs) when it is registered; with the list empty, push
 * notifications are off. Delivery is run webhooks' own (`deliverWebhook`): retried with backoff on
 * a network error, time-out, 408, 429 or 5xx, as many times as `SERVICE_WEBHOOK_MAX_ATTEMPTS`.
 */
import { randomUUID } from "node:crypto";
import { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { PushNotificationNotSupportedError, RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { V1PushNotificationSerializer, type PushNotificationSerializer } from "@a2a-js/sdk/server";
import { V03PushNotificationSerializer } from "@a2a-js/sdk/compat/v0_3/server";
import { messageOf, type Logger } from "svc/plugin";
import { deliverWebhook, type RunRecord, type RunStore, type WebhookAllowList, type WebhookOutcome, type WebhookSigner } from "svc/runs";
import { taskOf } from "./task-view.js";

/** Configs per task at most. */
const MAX_CONFIGS = 10;

/** A config as the run keeps it: its JSON and the wire version it was registered over. */
interface StoredConfig {
  readonly config: unknown;
  readonly version: string;
}

export interface PushOptions {
  /** Which URLs may receive notifications; absent or empty: push notifications are off. */
  readonly allowList?: WebhookAllowList;
  /** Signs notifications as run webhooks are signed, when a secret is set. */
  readonly signer?: WebhookSigner;
  /** Run webhooks' retry policy (`SERVICE_WEBHOOK_MAX_ATTEMPTS`, `…_RETRY_SECONDS`, `…_TIMEOUT_SECONDS`). */
  readonly retry: { readonly maxAttempts: number; readonly backoffMs: number; readonly timeoutMs: number };
  readonly log: Logger;
}

export class PushConfigs {
  private readonly serializers: Record<string, PushNotificationSerializer> = { "1.0": new V1PushNotificationSerializer(), "0.3": new V03PushNotificationSerializer() };
  private readonly stopping = new AbortController();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly store: RunStore,
    private readonly options: PushOptions,
  ) {}

  get enabled(): boolean {
    return this.options.allowList?.enabled === true;
  }

  /** Adds the config of a `SendMessage` to its new task. */
  async attach(run: RunRecord, config: TaskPushNotificationConfig, version = "1.0"): Promise<RunRecord> {
    if (!this.enabled) return run;
    const stored = await this.checked(run, config, version);
    return (await this.store.update(run.id, { metadata: { ...run.metadata, push_configs: [stored] } }))?.record ?? run;
  }

  async create(run: RunRecord, config: TaskPushNotificationConfig, version: string): Promise<TaskPushNotificationConfig> {
    if (!this.enabled) throw new PushNotificationNotSupportedError("Push notifications are not enabled on this server.");
    const stored = await this.checked(run, config, version);
    const others = storedOf(run).filter((s) => (s.config as { id?: string }).id !== (stored.config as { id: string }).id);
    if (others.length >= MAX_CONFIGS) throw new RequestMalformedError(`A task has at most ${MAX_CONFIGS} push notification configs.`);
    const change = await this.store.update(run.id, { metadata: { ...run.metadata, push_configs: [...others, stored] } });
    if (!change?.changed) throw new UnsupportedOperationError(`Task ${run.id} already ended: it sends no more notifications.`);
    return TaskPushNotificationConfig.fromJSON(stored.config);
  }

  list(run: RunRecord): TaskPushNotificationConfig[] {
    return storedOf(run).map((s) => TaskPushNotificationConfig.fromJSON(s.config));
  }

  async delete(run: RunRecord, id: string): Promise<void> {
    const kept = storedOf(run).filter((s) => (s.config as { id?: string }).id !== id);
    await this.store.update(run.id, { metadata: { ...run.metadata, push_configs: kept } });
  }

  /** Sends the task's state to its webhooks, in the background. */
  notify(run: RunRecord | string): void {
    const sending = this.send(run).catch((error) => this.options.log.warn(`A2A push notification of task ${typeof run === "string" ? run : run.id} failed: ${messageOf(error)}`));
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }

  /** Stops retrying and waits for attempts under way (each within its deadline). */
  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.pending);
  }

  private async send(ref: RunRecord | string): Promise<void> {
    if (!this.enabled) return;
    const run = typeof ref === "string" ? await this.store.get(ref) : ref;
    const configs = run ? storedOf(run) : [];
    if (!run || configs.length === 0) return;
    const task = taskOf(run);
    await Promise.all(
      configs.map(async ({ config: json, version }) => {
        const config = TaskPushNotificationConfig.fromJSON(json);
        const { body, contentType } = (this.serializers[version] ?? this.serializers["1.0"]!).serialize({ payload: { $case: "task", value: task } }, task);
        const headers: Record<string, string> = { "content-type": contentType, "user-agent": "svc-a2a" };
        if (config.authentication?.scheme) headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
        else if (config.token) headers["x-a2a-notification-token"] = config.token;
        const outcome = await deliverWebhook({ url: config.url, id: `${run.id}.${run.status}`, body, headers, signer: this.options.signer, signal: this.stopping.signal, ...this.options.retry });
        this.report(run, config.url, outcome);
      }),
    );
  }

  private report(run: RunRecord, url: string, outcome: WebhookOutcome): void {
    const fields = { task: run.id, state: run.status, attempts: outcome.attempts, status: outcome.status };
    if (outcome.delivered) this.options.log.debug(`A2A push notification of task ${run.id} delivered`, fields);
    else this.options.log.warn(`A2A push notification of task ${run.id} to ${new URL(url).origin} not delivered: ${outcome.error ?? "stopped"}`, fields);
  }

  private async checked(run: RunRecord, config: TaskPushNotificationConfig, version: string): Promise<StoredConfig> {
    if (!config.url) throw new RequestMalformedError("A push notification config needs a url.");
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new RequestMalformedError(`The push notification url '${config.url.slice(0, 200)}' is not a URL.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new RequestMalformedError("A push notification url must be http or https.");
    const refusal = this.options.allowList!.refusal(config.url);
    if (refusal) throw new RequestMalformedError(`The push notification url is refused: ${refusal}`);
    const stored = { ...config, id: config.id || randomUUID(), taskId: run.id };
    return { config: TaskPushNotificationConfig.toJSON(stored), version };
  }
}

function storedOf(run: RunRecord): StoredConfig[] {
  const configs = (run.metadata as { push_configs?: StoredConfig[] }).push_configs;
  return Array.isArray(configs) ? configs : [];
}
