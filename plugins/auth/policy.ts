/**
 * @module The access policy of API keys, per scope:
 * - `run`: a key with `run` (or `admin`); a key with a pipeline list runs only those pipelines.
 * - `admin` (deploy, undeploy): a key with `admin`.
 * - `traces` (`/traces`, `/executions`, `/metrics`): a key with `traces` (or `admin`); any other
 *   request goes on to the operator access policy, so the local operator credential keeps working.
 * - `docs` (the OpenAPI document and pages): any valid key, when docs are protected.
 * No key → 401, an unknown key → 401, a key without the scope or the pipeline → 403.
 */
import { allow, deny, type AccessDecision, type AccessScope, type Principal } from "svc/plugin";
import type { ApiKey, KeyScope } from "./api-keys.js";

export interface KeyPolicyOptions {
  /** Whether the docs pages need a key too. */
  readonly protectDocs: boolean;
}

export const MISSING_KEY = "An API key is required: send it as 'Authorization: Bearer <key>' or 'x-api-key: <key>'.";
export const UNKNOWN_KEY = "The API key is not valid.";

function grants(key: ApiKey, scope: KeyScope): boolean {
  return key.scopes.includes(scope) || key.scopes.includes("admin");
}

/** The caller a key stands for: its hash identifies it (a rotated key is a new owner of new files). */
export function principalOf(key: ApiKey): Principal {
  return { id: key.hash, name: key.name, admin: key.scopes.includes("admin"), ...(key.pipelines ? { pipelines: key.pipelines } : {}) };
}

/** A key's right to run one pipeline; undefined when it may. */
export function pipelineRefusal(key: ApiKey, pipeline: string): AccessDecision | undefined {
  if (key.scopes.includes("admin") || !key.pipelines || key.pipelines.includes(pipeline)) return undefined;
  return deny(403, `The API key '${key.name}' may not run the pipeline '${pipeline}'.`);
}

/**
 * Decides one request (`key`: the stored key matching the `presented` one); undefined leaves it to the scope's own policy (traces: operator access;
 * docs when not protected; scopes this plugin does not know).
 */
export function decide(
  options: KeyPolicyOptions,
  scope: AccessScope,
  presented: string | undefined,
  key: ApiKey | undefined,
  pipeline?: string,
): AccessDecision | undefined {
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
