/**
 * @module The access policy of API keys, per scope:
 * - `run`: a key with `run` (or `admin`); a key with a pipeline list runs only those pipelines.
 * - `admin` (deploy, undeploy): a key with `admin`.
 * - `traces` (`/traces`, `/executions`, `/metrics`): a key with `traces` (or `admin`); any other
 *   request goes on to the operator access policy, so the local operator credential keeps working.
 * - `docs` (the OpenAPI document and pages): any valid key, when docs are protected.
 * No key → 401, an unknown key → 401, a key without the scope or the pipeline → 403.
 */
import { allow, deny, type AccessDecision, type AccessScope } from "svc";
import { findKey, type ApiKey, type KeyScope } from "./api-keys.js";

export interface KeyPolicyOptions {
  /** Whether the docs pages need a key too. */
  readonly protectDocs: boolean;
}

export const MISSING_KEY = "An API key is required: send it as 'Authorization: Bearer <key>' or 'x-api-key: <key>'.";
export const UNKNOWN_KEY = "The API key is not valid.";

function grants(key: ApiKey, scope: KeyScope): boolean {
  return key.scopes.includes(scope) || key.scopes.includes("admin");
}

/** A key's right to run one pipeline; undefined when it may. */
export function pipelineRefusal(key: ApiKey, pipeline: string): AccessDecision | undefined {
  if (key.scopes.includes("admin") || !key.pipelines || key.pipelines.includes(pipeline)) return undefined;
  return deny(403, `The API key '${key.name}' may not run the pipeline '${pipeline}'.`);
}

/**
 * Decides one request; undefined leaves it to the scope's own policy (traces: operator access;
 * docs when not protected; scopes this plugin does not know).
 */
export function decide(
  keys: readonly ApiKey[],
  options: KeyPolicyOptions,
  scope: AccessScope,
  presented: string | undefined,
  pipeline?: string,
): AccessDecision | undefined {
  const key = presented === undefined ? undefined : findKey(keys, presented);
  switch (scope) {
    case "traces":
      return key && grants(key, "traces") ? allow() : undefined;
    case "docs":
      if (!options.protectDocs) return undefined;
      return presented === undefined ? deny(401, MISSING_KEY) : key ? allow() : deny(401, UNKNOWN_KEY);
    case "run":
    case "admin": {
      if (presented === undefined) return deny(401, MISSING_KEY);
      if (!key) return deny(401, UNKNOWN_KEY);
      if (!grants(key, scope)) return deny(403, `The API key '${key.name}' lacks the '${scope}' scope.`);
      return (pipeline && pipelineRefusal(key, pipeline)) || allow();
    }
    default:
      return undefined;
  }
}
