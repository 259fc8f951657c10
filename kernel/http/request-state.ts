/**
 * @module Per-request state shared by the kernel, plugins and a host's own middleware. A host's
 * middleware in front of `kernel.handler` may set `req.state` before the kernel sees the request.
 */
import type { IncomingMessage } from "node:http";

/**
 * Who made a request, as the access policy that identified the caller knows it (svc:auth: the API
 * key). Features that keep things per caller (uploaded files) scope them to `id`; `admin` sees
 * everyone's. Absent when nobody identified the caller (no auth): such things are shared.
 */
export interface Principal {
  /** Stable and unique per caller (svc:auth: the key's hash, so a rotated key is a new caller). */
  readonly id: string;
  /** For messages and logs. */
  readonly name: string;
  readonly admin: boolean;
  /** Pipelines this caller may use; every pipeline when absent. */
  readonly pipelines?: readonly string[];
}

/** Whether `principal` may see what `owner` (a principal id; undefined: made without auth) owns. */
export function ownedBy(owner: string | undefined, principal: Principal | undefined): boolean {
  return principal === undefined || principal.admin || owner === principal.id;
}

/** Fields plugins add by declaration merging. */
export interface RequestState {
  /** Set by the access policy that identified the caller (or a host's trusted middleware). */
  principal?: Principal;
  /** Set to true only by trusted middleware after it verified the caller; never from a client header. */
  tracing_operator?: boolean;
  [key: string]: unknown;
}

export function requestState(req: IncomingMessage): RequestState {
  const r = req as IncomingMessage & { state?: RequestState };
  return (r.state ??= {});
}
