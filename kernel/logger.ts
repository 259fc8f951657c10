/**
 * @module The logger: levels from `LOG`, one line per record on stderr (stdout stays free for
 * protocols such as MCP over stdio), child loggers that carry bindings like the plugin name.
 */
import { messageOf } from "./errors.js";

export const LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogSink = (line: string) => void;

const rank: Record<LogLevel, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

export class Logger {
  constructor(
    readonly level: LogLevel = "INFO",
    private readonly sink: LogSink = (line) => process.stderr.write(line + "\n"),
    private readonly bindings: Readonly<Record<string, unknown>> = {},
  ) {}

  child(bindings: Record<string, unknown>): Logger {
    return new Logger(this.level, this.sink, { ...this.bindings, ...bindings });
  }

  enabled(level: LogLevel): boolean {
    return rank[level] >= rank[this.level];
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.write("DEBUG", message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.write("INFO", message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.write("WARNING", message, fields);
  }
  /** Errors log their stack: stack traces belong in the log, not in responses. */
  error(message: string, error?: unknown, fields?: Record<string, unknown>): void {
    if (!this.enabled("ERROR")) return;
    const stack = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? "" : messageOf(error);
    this.write("ERROR", stack ? `${message}\n${indent(stack)}` : message, fields);
  }

  private write(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const { plugin, ...rest } = { ...this.bindings, ...fields };
    const scope = plugin ? `[${String(plugin)}] ` : "";
    const extra = Object.entries(rest)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    this.sink(`${new Date().toISOString()} ${level.padEnd(7)} ${scope}${message}${extra ? " " + extra : ""}`);
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => "    " + l)
    .join("\n");
}
