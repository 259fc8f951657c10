/**
 * @module Access decisions per scope, made by the `auth` hook (a BailHook): taps run in order and
 * the first that returns a decision wins; when none decides, the scope's policy is resolved from
 * the container, so a host swaps a policy by registering its own under the scope's token.
 */
import type { IncomingMessage } from "node:http";
import type { DependencyContainer } from "tsyringe";
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

/** One frozen decision for every allowed request: nothing to allocate on each. */
const ALLOWED: AccessDecision = Object.freeze({ allow: true });
export const allow = (): AccessDecision => ALLOWED;
export const deny = (status: 401 | 403, message: string): AccessDecision => ({ allow: false, status, message });

/**
 * The fallback of the `auth` hook: the scope's policy, resolved from the container once per scope
 * (hosts replace policies before boot); a scope without one is refused.
 */
export function scopePolicies(container: DependencyContainer): AccessPolicy {
  const policies = new Map<string, AccessPolicy>();
  const policyOf = (scope: string) => {
    let policy = policies.get(scope);
    if (!policy) {
      const token = accessToken(scope);
      policy = container.isRegistered(token, true) ? container.resolve<AccessPolicy>(token) : () => deny(403, `No access policy is configured for scope '${scope}'.`);
      policies.set(scope, policy);
    }
    return policy;
  };
  return (request) => policyOf(request.scope)(request);
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
