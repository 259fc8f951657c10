/**
 * @module Per-request state shared by the kernel, plugins and a host's own middleware. A host's
 * middleware in front of `kernel.handler` may set `req.state` before the kernel sees the request.
 */
import type { IncomingMessage } from "node:http";

/** Fields plugins add by declaration merging. */
export interface RequestState {
  /** Set to true only by trusted middleware after it verified the caller; never from a client header. */
  tracing_operator?: boolean;
  [key: string]: unknown;
}

export function requestState(req: IncomingMessage): RequestState {
  const r = req as IncomingMessage & { state?: RequestState };
  return (r.state ??= {});
}
