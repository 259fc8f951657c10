/**
 * @module Operator access (SPEC §5.2): the kernel's default policy of the `traces` scope, used by
 * every operator view (`GET /traces`, the execution index), whichever plugins are loaded.
 *
 * A request is an operator's when trusted middleware set `tracing_operator` on its state (never
 * derived from a client header), or when it carries `Authorization: Bearer <token>` with one of:
 * - the `operatorToken` setting (`SERVICE_OPERATOR_TOKEN`, formerly `SERVICE_TRACING_TOKEN`), when set;
 * - for a server bound to the literal `localhost`, `127.0.0.1` or `::1` (not on Windows), the
 *   private credential file (see credential-file.ts), created at boot and shared by workers.
 * Missing credentials get 401, wrong ones 403. A remote bind without a token refuses everything
 * (403), and the log says why. Hosts replace the whole policy by registering their own under
 * `TRACE_ACCESS` before boot.
 */
import { allow, deny, type AccessDecision, type AccessPolicy, type AccessRequest } from "../hooks/auth-hook.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Settings } from "../settings.js";
import { bearerToken, tokensEqual } from "./bearer.js";
import { dashboardTokenPath, ensureDashboardToken } from "./credential-file.js";
import type { OperatorAccessSettings } from "./settings.js";

const LOOPBACK_LITERALS = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** True for the literal loopback hosts for which the local credential file is used. */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_LITERALS.has(host.trim().toLowerCase());
}

/** The operator views (`/traces`, `/executions`, `/metrics`) share this policy: the messages name none of them. */
export const MISSING_CREDENTIALS = "Operator access is required: send Authorization: Bearer <token> (SERVICE_OPERATOR_TOKEN, or the local operator credential).";
export const WRONG_CREDENTIALS = "The operator token is not valid.";

export class OperatorAccess {
  private tokens?: readonly string[];
  private preparing?: Promise<void>;
  /** Why every request is refused, when no credential can be accepted. */
  private refusal = "";

  constructor(
    private readonly settings: Pick<Settings, "host"> & OperatorAccessSettings,
    private readonly log: Logger,
    private readonly tokenPath: string = dashboardTokenPath(),
  ) {}

  /** The policy to register under `TRACE_ACCESS`; synchronous once prepared. */
  readonly policy: AccessPolicy = (request) => {
    if (request.state.tracing_operator === true) return allow();
    if (!this.tokens) return this.prepare().then(() => this.decide(request));
    return this.decide(request);
  };

  /** Resolves the accepted tokens once (creating the local credential file for loopback binds). */
  prepare(): Promise<void> {
    return (this.preparing ??= this.resolveTokens());
  }

  private async resolveTokens(): Promise<void> {
    const tokens: string[] = [];
    const explicit = this.settings.operatorToken?.trim();
    if (explicit) tokens.push(explicit);
    const host = this.settings.host;
    let reason: string;
    if (!isLoopbackBind(host)) {
      reason = `svc is bound to '${host}', which is not a loopback host, and SERVICE_OPERATOR_TOKEN is not set`;
    } else if (process.platform === "win32") {
      reason = "there is no local operator credential on Windows and SERVICE_OPERATOR_TOKEN is not set";
    } else {
      reason = "";
      try {
        tokens.push(await ensureDashboardToken(this.tokenPath));
      } catch (error) {
        reason = `the local operator credential could not be used (${messageOf(error)}) and SERVICE_OPERATOR_TOKEN is not set`;
        this.log.error(`Operator credential ${this.tokenPath} is unusable`, error);
      }
    }
    if (tokens.length === 0) {
      this.refusal = `Operator views (traces, executions, metrics) refuse every request: ${reason}.`;
      this.log.warn(`${this.refusal} Set SERVICE_OPERATOR_TOKEN, or have the host provide its own access policy.`);
    }
    this.tokens = tokens;
  }

  private decide(request: AccessRequest): AccessDecision {
    const tokens = this.tokens!;
    if (tokens.length === 0) return deny(403, this.refusal);
    const presented = bearerToken(request.req);
    if (presented === undefined) return deny(401, MISSING_CREDENTIALS);
    let valid = false;
    // Every token is compared, so the time taken does not say which one matched.
    for (const token of tokens) valid = tokensEqual(presented, token) || valid;
    return valid ? allow() : deny(403, WRONG_CREDENTIALS);
  }
}
