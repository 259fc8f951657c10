/**
 * @module Graceful shutdown of a serving command: the first SIGINT/SIGTERM (or another trigger,
 * such as stdin closing) runs `close` and exits 0; a second signal exits at once.
 */
import type { Logger } from "svc/plugin";

export function shutdownOnSignals(log: Logger, close: () => Promise<void>, details?: Record<string, unknown>): (reason: string) => void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) {
      log.warn(`${reason} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log.info(`${reason} received: shutting down`, details);
    close().then(
      () => process.exit(0),
      (error) => {
        log.error("Shutdown failed", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  return stop;
}
