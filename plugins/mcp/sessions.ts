/**
 * @module SessionTable: the open MCP sessions (Streamable HTTP with session ids, legacy SSE), each
 * with its own transport and `Server`. Capped, and reaped when idle: clients often never say goodbye
 * (no DELETE, a dropped SSE stream), and a transport dropped without `close()` still leaks.
 * It also counts them by transport, for `/metrics` (the `MCP_SESSIONS` token of `svc/mcp`).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "svc/plugin";

/** The session-carrying transports (stateless Streamable HTTP requests open no session). */
export type SessionTransport = "streamable-http" | "sse";

/** What `/metrics` reads of the sessions, at scrape time (nothing is done per request for it). */
export interface McpSessionCounts {
  /** Sessions open now, by transport. */
  open(): Record<SessionTransport, number>;
  /** Sessions opened since the server started, by transport. */
  opened(): Record<SessionTransport, number>;
}

export interface Session<T extends Transport = Transport> {
  readonly id: string;
  readonly transport: T;
  readonly kind: SessionTransport;
  server?: Server;
  lastSeen: number;
  /** Requests are running: a long tool call is not idleness. */
  busy: number;
}

export class SessionTable implements McpSessionCounts {
  private readonly sessions = new Map<string, Session>();
  private reaper?: NodeJS.Timeout;
  private readonly openedCount: Record<SessionTransport, number> = { "streamable-http": 0, sse: 0 };

  constructor(
    readonly maxSessions: number,
    private readonly idleMs: number,
    private readonly log: Logger,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get full(): boolean {
    return this.sessions.size >= this.maxSessions;
  }

  get<T extends Transport>(id: string): Session<T> | undefined {
    const session = this.sessions.get(id) as Session<T> | undefined;
    if (session) session.lastSeen = Date.now();
    return session;
  }

  add<T extends Transport>(id: string, transport: T, kind: SessionTransport): Session<T> {
    const session: Session<T> = { id, transport, kind, lastSeen: Date.now(), busy: 0 };
    this.sessions.set(id, session);
    this.openedCount[kind]++;
    this.startReaper();
    return session;
  }

  delete(id: string): void {
    this.sessions.delete(id);
    if (this.sessions.size === 0) this.stopReaper();
  }

  open(): Record<SessionTransport, number> {
    const counts: Record<SessionTransport, number> = { "streamable-http": 0, sse: 0 };
    for (const session of this.sessions.values()) counts[session.kind]++;
    return counts;
  }

  opened(): Record<SessionTransport, number> {
    return { ...this.openedCount };
  }

  /** Closes sessions idle longer than the time-out; returns how many. */
  reap(now = Date.now()): number {
    let closed = 0;
    for (const session of [...this.sessions.values()]) {
      if (session.busy > 0 || now - session.lastSeen < this.idleMs) continue;
      this.log.info(`Closing idle MCP session ${session.id}`);
      this.delete(session.id);
      void session.transport.close().catch(() => undefined);
      closed++;
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    this.stopReaper();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.transport.close()));
  }

  private startReaper(): void {
    if (this.reaper) return;
    const every = Math.max(50, Math.min(this.idleMs / 4, 30_000));
    this.reaper = setInterval(() => this.reap(), every);
    this.reaper.unref();
  }

  private stopReaper(): void {
    clearInterval(this.reaper);
    this.reaper = undefined;
  }
}
