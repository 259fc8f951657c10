/**
 * @module Signing webhook requests as the Standard Webhooks spec says (standardwebhooks.com):
 * `webhook-id` (the same on every retry, for deduplication), `webhook-timestamp` (seconds, so a
 * receiver refuses replays older than its tolerance) and `webhook-signature: v1,<base64 HMAC-SHA256
 * of "<id>.<timestamp>.<body>">`. Any Standard Webhooks library verifies them.
 */
import { Webhook } from "standardwebhooks";

export interface WebhookHeaders {
  readonly "webhook-id": string;
  readonly "webhook-timestamp": string;
  readonly "webhook-signature": string;
}

export class WebhookSigner {
  private readonly webhook: Webhook;

  /**
   * `whsec_<base64>` is the spec's secret format (its bytes are the base64-decoded part); any other
   * text is used as its UTF-8 bytes (receivers verify with the raw format).
   */
  constructor(secret: string, setting = "SERVICE_WEBHOOK_SECRET") {
    if (secret.startsWith("whsec_")) {
      const key = Buffer.from(secret.slice(6), "base64");
      if (key.length === 0 || key.toString("base64").replace(/=+$/, "") !== secret.slice(6).replace(/=+$/, "")) {
        throw new Error(`${setting}: the part after 'whsec_' is not base64`);
      }
      this.webhook = new Webhook(key, { format: "raw" });
    } else {
      if (secret.length === 0) throw new Error(`${setting}: the secret is empty`);
      this.webhook = new Webhook(Buffer.from(secret, "utf8"), { format: "raw" });
    }
  }

  /** The three headers for one attempt to send `body` (sign again for each retry: the timestamp moves). */
  sign(id: string, body: string, now = new Date()): WebhookHeaders {
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": this.webhook.sign(id, now, body),
    };
  }
}
