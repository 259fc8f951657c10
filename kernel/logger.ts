/**
 * @module The logger: levels from `LOG`, one record per line on stderr (stdout stays free for
 * protocols such as MCP over stdio), child loggers that carry bindings like the plugin name and
 * the request id. Two formats (`SERVICE_LOG_FORMAT`): `text` for people, and `json` for log
 * shippers — one JSON object per line written by pino: `level`, `time` (ISO 8601), `msg`, `pid`,
 * `plugin`, `request_id`, the record's own fields, and `err` (type, message, stack) for errors.
 */
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger as Pino } from "pino";
import { messageOf } from "./errors.js";

export const LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type LogSink = (line: string) => void;

const rank: Record<LogLevel, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };
const pinoLevel = { DEBUG: "debug", INFO: "info", WARNING: "warn", ERROR: "error" } as const;

/** Writes one record; `fields` holds the logger's bindings and the record's own fields. */
interface LogWriter {
  write(level: LogLevel, message: string, fields: Record<string, unknown>, error?: unknown): void;
}

const stderrSink: LogSink = (line) => process.stderr.write(line + "\n");

class TextWriter implements LogWriter {
  constructor(private readonly sink: LogSink) {}

  write(level: LogLevel, message: string, fields: Record<string, unknown>, error?: unknown): void {
    if (error !== undefined) {
      const stack = error instanceof Error ? (error.stack ?? error.message) : messageOf(error);
      if (stack) message = `${message}\n${indent(stack)}`;
    }
    const { plugin, ...rest } = fields;
    const scope = plugin ? `[${String(plugin)}] ` : "";
    const extra = Object.entries(rest)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    this.sink(`${new Date().toISOString()} ${level.padEnd(7)} ${scope}${message}${extra ? " " + extra : ""}`);
  }
}

class JsonWriter implements LogWriter {
  private readonly pino: Pino;

  constructor(sink?: LogSink) {
    // Synchronous on stderr: a record written just before the process exits is not lost.
    const destination: DestinationStream = sink ? { write: (line: string) => sink(line.replace(/\n$/, "")) } : pino.destination({ fd: 2, sync: true });
    this.pino = pino(
      {
        level: "debug",
        base: { pid: process.pid },
        timestamp: stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        serializers: { err: stdSerializers.err },
      },
      destination,
    );
  }

  write(level: LogLevel, message: string, fields: Record<string, unknown>, error?: unknown): void {
    const { request, ...rest } = fields;
    const record: Record<string, unknown> = request === undefined ? rest : { request_id: request, ...rest };
    if (error !== undefined) record.err = error instanceof Error ? error : { message: messageOf(error) };
    this.pino[pinoLevel[level]](record, message);
  }
}

export class Logger {
  private readonly writer: LogWriter;

  /**
   * `output`: a sink for text lines (stderr by default), or a writer made by `Logger.create`.
   */
  constructor(
    readonly level: LogLevel = "INFO",
    output: LogSink | LogWriter = stderrSink,
    private readonly bindings: Readonly<Record<string, unknown>> = {},
  ) {
    this.writer = typeof output === "function" ? new TextWriter(output) : output;
  }

  /** A logger in `format` (text or JSON lines), on stderr or on `sink`. */
  static create(level: LogLevel = "INFO", format: LogFormat = "text", sink?: LogSink): Logger {
    return new Logger(level, format === "json" ? new JsonWriter(sink) : new TextWriter(sink ?? stderrSink));
  }

  child(bindings: Record<string, unknown>): Logger {
    return new Logger(this.level, this.writer, { ...this.bindings, ...bindings });
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
    this.write("ERROR", message, fields, error);
  }

  private write(level: LogLevel, message: string, fields?: Record<string, unknown>, error?: unknown): void {
    if (!this.enabled(level)) return;
    this.writer.write(level, message, fields ? { ...this.bindings, ...fields } : { ...this.bindings }, error);
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => "    " + l)
    .join("\n");
}
