/**
 * @module AuthHook: decides access per scope. Taps run in order and the first that returns a
 * decision wins (a plugin can short-circuit); when none decides, the scope's policy is resolved
 * from the container, so a host swaps a policy by registering its own under the scope's token.
 */
import type { IncomingMessage } from "node:http";
import type { DependencyContainer } from "tsyringe";
import { attribute, TapList, type TapOptions } from "./taps.js";
import { accessToken } from "../tokens.js";
import type { RequestState } from "../http/request-state.js";

/** Scopes with a policy. Plugins add scopes by declaration merging. */
export interface AccessScopes {
  /** `GET /traces` and other operator views. */
  traces: true;
  /** Deploy, undeploy and other management actions. */
  admin: true;
  /** Running a pipeline, whatever the transport. */
  run: true;
  /** The OpenAPI document and the documentation pages. */
  docs: true;
}
export type AccessScope = keyof AccessScopes & string;

export interface AccessRequest {
  readonly scope: AccessScope;
  readonly req: IncomingMessage;
  /** Per-request state; trusted middleware may set `tracing_operator` after verifying a caller. */
  readonly state: RequestState;
  readonly pipeline?: string;
}

export type AccessDecision = { allow: true } | { allow: false; status: 401 | 403; message: string };
export type AccessPolicy = (request: AccessRequest) => AccessDecision | Promise<AccessDecision>;
export type AccessCheck = (request: AccessRequest) => AccessDecision | undefined | Promise<AccessDecision | undefined>;

export const allow = (): AccessDecision => ({ allow: true });
export const deny = (status: 401 | 403, message: string): AccessDecision => ({ allow: false, status, message });

export class AuthHook {
  private readonly taps = new TapList<AccessCheck>();

  constructor(
    readonly name: string,
    private readonly container: DependencyContainer,
  ) {}

  tap(plugin: string, check: AccessCheck, options?: TapOptions): void {
    this.taps.add(plugin, check, options);
  }

  /**
   * Decides; synchronous when every step is (the common case), so a request does not wait a turn.
   * The scope's policy is looked up in the container once: hosts replace policies before boot.
   */
  authorize(request: AccessRequest): AccessDecision | Promise<AccessDecision> {
    const taps = this.taps.all;
    if (taps.length === 0) return this.policyOf(request.scope)(request);
    return this.decideWithTaps(taps, request);
  }

  private async decideWithTaps(taps: AuthHook["taps"]["all"], request: AccessRequest): Promise<AccessDecision> {
    for (const tap of taps) {
      let decision: AccessDecision | undefined;
      try {
        decision = await tap.fn(request);
      } catch (error) {
        throw attribute(this.name, tap.plugin, error);
      }
      if (decision) return decision;
    }
    return this.policyOf(request.scope)(request);
  }

  private readonly policies = new Map<string, AccessPolicy>();

  private policyOf(scope: string): AccessPolicy {
    let policy = this.policies.get(scope);
    if (!policy) {
      const token = accessToken(scope);
      policy = this.container.isRegistered(token, true)
        ? this.container.resolve<AccessPolicy>(token)
        : () => deny(403, `No access policy is configured for scope '${scope}'.`);
      this.policies.set(scope, policy);
    }
    return policy;
  }
}

/**
 * The kernel's default policies of run and management: the spec has no built-in auth for them.
 * The `traces` scope's default is operator access (kernel/operator-access), registered by the kernel.
 */
export const defaultPolicies: Record<string, AccessPolicy> = {
  run: allow,
  admin: allow,
  docs: allow,
};
