/**
 * @module The running viewer: polls on a timer (not while paused), applies keys, redraws after
 * each change and on resize, and resolves once the user quits or a signal ends it, with the
 * terminal restored and no request or timer left behind.
 */
import type { Credential } from "./credentials.js";
import { actionFor, applyAction, type KeyPress } from "./keys.js";
import { pollInstances } from "./instances.js";
import { listHeight, render } from "./render.js";
import { toAnsi } from "./styled-line.js";
import type { Terminal } from "./terminal.js";
import { applyProblem, applySnapshot, initialState, withNotice, type ViewState } from "./view-state.js";

export interface DashboardOptions {
  /** Shown in the header. */
  readonly url: string;
  /** Every instance to follow (default: `url`); several are merged, each trace marked with its instance. */
  readonly urls?: readonly string[];
  readonly limit?: number;
  readonly intervalSec: number;
  /** Chosen again before every poll (per instance), so a credential file written later is picked up. */
  readonly credential: (url: string) => Promise<Credential>;
  readonly color: boolean;
  readonly terminal: Terminal;
}

const QUIT_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export function runDashboard(options: DashboardOptions): Promise<void> {
  const { terminal } = options;
  let state: ViewState = initialState();
  let credential: Credential = { source: "none" };
  let timer: NodeJS.Timeout | undefined;
  let inFlight: AbortController | undefined;
  let stopped = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const draw = () => {
    if (stopped) return;
    const size = terminal.size;
    const out = render(state, size, { url: options.url, intervalSec: options.intervalSec, credentialFile: credential.file, credentialRefused: credential.refused });
    state = { ...state, scroll: out.scroll };
    terminal.draw(out.lines.map((l) => toAnsi(l, size.columns, options.color)));
  };

  const poll = async (manual: boolean) => {
    if (inFlight || stopped) return;
    inFlight = new AbortController();
    const urls = options.urls ?? [options.url];
    const { result, missing } = await pollInstances(urls, {
      limit: options.limit,
      credential: async (url) => {
        const chosen = await options.credential(url);
        if (url === urls[0]) credential = chosen;
        return chosen;
      },
      timeoutMs: Math.max(5_000, options.intervalSec * 2_000),
      signal: inFlight.signal,
    });
    inFlight = undefined;
    if (stopped || (state.paused && !manual)) return;
    state = "snapshot" in result ? applySnapshot(state, result.snapshot, Date.now()) : applyProblem(state, result.problem);
    if (manual && "snapshot" in result) state = withNotice(state, state.paused ? "Refreshed once (still paused)." : "Refreshed.");
    if (missing.length > 0) state = withNotice(state, `Not answering: ${missing.join(", ")}`);
    draw();
  };

  const schedule = () => {
    timer = setTimeout(async () => {
      if (!state.paused) await poll(false);
      if (!stopped) schedule();
    }, options.intervalSec * 1000);
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    inFlight?.abort();
    for (const signal of QUIT_SIGNALS) process.off(signal, stop);
    terminal.restore();
    finish();
  };

  const onKey = (key: KeyPress) => {
    try {
      const action = actionFor(key, state.input !== undefined);
      if (action === undefined) return;
      if (action === "quit") return stop();
      state = applyAction(state, action, listHeight(terminal.size));
      if (action === "refresh") void poll(true);
      draw();
    } catch (error) {
      stop();
      throw error;
    }
  };

  for (const signal of QUIT_SIGNALS) process.on(signal, stop);
  terminal.start(onKey, draw);
  draw();
  void poll(false).then(() => !stopped && schedule());
  return done;
}
