/**
 * @module ToolServer: MCP tools on the SDK's low-level `Server`. Tools are plain functions with a
 * valibot or JSON input schema; every connection gets a fresh `Server` (never shared between
 * clients: the SDK's cross-client leak), built by `createServer`. Servers with a lasting
 * connection (sessions, SSE, stdio) hear `notifications/tools/list_changed` when tools change.
 * `run()` serves the tools on their own (Streamable HTTP, SSE or stdio); `McpEndpoints` mounts
 * them in a kernel app.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type CreateTaskResult,
  type JSONRPCMessage,
  type ProgressToken,
  type ServerNotification,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { Logger, NOOP_TRACER, remoteParentOf, type Span, type Tracer } from "svc/plugin";
import { compileSchema, type CompiledSchema, type ToolInputSchema } from "./tool-schema.js";
import { errorResult, textResult, toToolResult } from "./tool-result.js";
import { runToolServer, type RunOptions, type RunningToolServer } from "./serve-tools.js";
import type { ToolTasks } from "./tool-tasks.js";

export type McpTransportKind = "streamable-http" | "sse" | "stdio" | "memory";

export interface ToolContext {
  /** Aborted when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
  /** The HTTP request's headers, lower-cased (`{}` over stdio). */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly sessionId?: string;
  readonly requestId: string | number;
  readonly transport: McpTransportKind;
  /** The `svc.mcp.call_tool` span: the parent of spans made for the call. */
  readonly span?: Span;
  /**
   * Set when the client asked for progress (`_meta.progressToken`): sends one
   * `notifications/progress` with `message`, its `progress` one more than the last.
   */
  readonly progress?: (message: string) => Promise<void>;
}

export type ToolFn = (args: Record<string, unknown>, ctx: ToolContext) => unknown;

export interface ToolOptions {
  /** The tool name clients call (1–128 of `A-Z a-z 0-9 _ - .`). */
  readonly name: string;
  readonly description?: string;
  /** A valibot object schema or a JSON Schema object; without one any object is accepted. */
  readonly inputSchema?: ToolInputSchema;
  readonly annotations?: Tool["annotations"];
  /**
   * Whether a client may call it as an MCP task, when the server serves tasks (`tasks` option):
   * `optional` (the default) or `forbidden` (a task-augmented call is refused with -32601).
   */
  readonly taskSupport?: "optional" | "forbidden";
}

/** Who calls: what a tool access check may look at. */
export interface ToolCaller {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly transport: McpTransportKind;
}

/** Whether a caller may see and call a tool (API keys, for one); every tool is open without one. */
export type ToolAccess = (tool: string, caller: ToolCaller) => boolean | Promise<boolean>;

export interface ToolServerOptions {
  readonly name?: string;
  readonly version?: string;
  readonly instructions?: string;
  readonly logger?: Logger;
  readonly tracer?: Tracer;
  /** Append the stack to error results. */
  readonly showTracebacks?: boolean;
  /** Filters `tools/list` and refuses `tools/call` per caller. */
  readonly access?: ToolAccess;
  /**
   * Serve MCP tasks (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) from a run store;
   * without it a task-augmented call is answered as a plain one, as the spec asks.
   */
  readonly tasks?: ToolTasks;
}

interface ToolEntry {
  readonly fn: ToolFn;
  readonly options: ToolOptions;
  readonly schema: CompiledSchema;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

// The SDK builds an Ajv instance per Server unless given one; a server per request makes that the
// main cost of a stateless call. One validator (it caches compiled schemas) serves every server.
const sharedValidator = new AjvJsonSchemaValidator();

export class ToolServer {
  readonly log: Logger;
  readonly tracer: Tracer;
  private readonly entries = new Map<string, ToolEntry>();
  private listing?: Tool[];
  private readonly live = new Set<Server>();
  private notifyQueued = false;

  constructor(readonly options: ToolServerOptions = {}) {
    this.log = options.logger ?? new Logger("INFO");
    this.tracer = options.tracer ?? NOOP_TRACER;
  }

  /** Adds a tool; its schema is compiled now, so a bad schema fails here, not on a call. */
  addTool(fn: ToolFn, options: ToolOptions): void {
    if (!TOOL_NAME.test(options.name)) throw new Error(`Invalid tool name '${options.name}': use 1-128 of A-Z a-z 0-9 _ - .`);
    if (this.entries.has(options.name)) throw new Error(`A tool named '${options.name}' already exists`);
    this.entries.set(options.name, { fn, options, schema: compileSchema(options.inputSchema) });
    this.changed();
  }

  removeTool(name: string): boolean {
    const removed = this.entries.delete(name);
    if (removed) this.changed();
    return removed;
  }

  hasTool(name: string): boolean {
    return this.entries.has(name);
  }

  /** The tools as `tools/list` shows them, in the order they were added. */
  get tools(): readonly Tool[] {
    return (this.listing ??= [...this.entries.values()].map(({ options, schema }) => ({
      name: options.name,
      description: options.description ?? "",
      inputSchema: schema.json,
      ...(options.annotations ? { annotations: options.annotations } : {}),
      ...(this.options.tasks ? { execution: { taskSupport: options.taskSupport ?? "optional" } } : {}),
    })));
  }

  /**
   * Validates the arguments and calls the tool; failures become `isError` results. An unknown tool
   * is a protocol error (JSON-RPC -32602, as the spec's tools page and the SDK's McpServer answer).
   */
  async callTool(name: string, args: unknown, ctx: Omit<ToolContext, "span">): Promise<CallToolResult> {
    const entry = this.entries.get(name);
    // A caller's W3C `traceparent` makes the call part of its trace.
    const span = this.tracer.startSpan("svc.mcp.call_tool", { "svc.mcp.tool.name": name, "svc.mcp.transport": ctx.transport }, remoteParentOf(ctx.headers));
    if (!entry) {
      const error = new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      span.setTag("svc.mcp.is_error", true);
      span.end(error);
      throw error;
    }
    let result: CallToolResult;
    if (this.options.access && !(await this.options.access(name, ctx))) {
      result = textResult(`The tool '${name}' is not available to this caller.`, true);
    } else {
      const parsed = entry.schema.validate(args);
      if (!parsed.ok) {
        result = textResult(`Input validation error for tool '${name}': ${parsed.message}`, true);
      } else {
        try {
          result = toToolResult(await entry.fn(parsed.value, { ...ctx, span }));
        } catch (error) {
          if (!ctx.signal.aborted) this.log.warn(`Tool '${name}' failed: ${(error as Error)?.message ?? error}`);
          result = errorResult(name, error, this.options.showTracebacks ?? false);
        }
      }
    }
    span.setTag("svc.mcp.is_error", result.isError === true);
    span.end(result.isError ? new Error(String((result.content[0] as { text?: string } | undefined)?.text)) : undefined);
    return result;
  }

  /** A fresh SDK `Server` with this tool set; one per connection, never shared. */
  createServer(transport: McpTransportKind): Server {
    const tasks = this.options.tasks;
    const server = new Server(
      { name: this.options.name ?? "svc-mcp-server", version: this.options.version ?? "0.0.0" },
      {
        capabilities: { tools: { listChanged: true }, ...(tasks ? { tasks: TASKS_CAPABILITY } : {}) },
        jsonSchemaValidator: sharedValidator,
        ...(tasks ? { taskStore: tasks.taskStore } : {}),
        ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
      tools: await this.toolsFor({ headers: headersOf(extra.requestInfo?.headers), transport }),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const { name, arguments: args, task, _meta } = request.params;
      const ctx = { headers: headersOf(extra.requestInfo?.headers), sessionId: extra.sessionId, requestId: extra.requestId, transport };
      if (task && tasks) {
        // Notifications after the answer need a connection that stays: a session, SSE or stdio.
        const lasting = extra.sessionId !== undefined || transport === "stdio" || transport === "memory";
        return this.startTask(tasks, name, args ?? {}, {
          ttl: task.ttl,
          sessionId: extra.sessionId,
          requestId: extra.requestId,
          progressToken: _meta?.progressToken,
          execute: (signal, progress) => this.callTool(name, args, { ...ctx, signal, progress }),
          ...(lasting ? { notify: (n: ServerNotification) => server.notification(n) } : {}),
        });
      }
      return this.callTool(name, args, { ...ctx, signal: extra.signal, progress: progressReporter(_meta?.progressToken, (n) => extra.sendNotification(n)) });
    });
    return server;
  }

  /** A fresh server connected to `transport`; without tasks, task-augmented calls are served as plain ones. */
  async open(transport: Transport, kind: McpTransportKind): Promise<Server> {
    const server = this.createServer(kind);
    await server.connect(transport);
    if (!this.options.tasks) ignoreTaskAugmentation(transport);
    return server;
  }

  private startTask(tasks: ToolTasks, name: string, args: Record<string, unknown>, call: Omit<Parameters<ToolTasks["start"]>[0], "tool" | "arguments">): Promise<CreateTaskResult> {
    const entry = this.entries.get(name);
    if (!entry) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // The spec's answer to a task for a tool that does not take them.
    if (entry.options.taskSupport === "forbidden") throw new ProtocolError(ErrorCode.MethodNotFound, `The tool '${name}' cannot be called as a task`);
    return tasks.start({ tool: name, arguments: args, ...call });
  }

  /** The tools a caller may see. */
  private async toolsFor(caller: ToolCaller): Promise<Tool[]> {
    const all = this.tools as Tool[];
    const access = this.options.access;
    if (!access) return all;
    const allowed = await Promise.all(all.map((tool) => access(tool.name, caller)));
    return all.filter((_, i) => allowed[i]);
  }

  /** Connects a fresh server to a lasting transport (stdio, in-memory, a session) and keeps it notified. */
  async connect(transport: Transport, kind: McpTransportKind = "memory"): Promise<Server> {
    const server = await this.open(transport, kind);
    this.live.add(server);
    server.onclose = () => this.live.delete(server);
    return server;
  }

  /** Serves the tools on their own: Streamable HTTP (plus legacy SSE), SSE only, or stdio. */
  run(options?: RunOptions): Promise<RunningToolServer> {
    return runToolServer(this, options);
  }

  /** Closes every lasting connection. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.live].map((s) => s.close()));
    this.live.clear();
  }

  get connections(): number {
    return this.live.size;
  }

  /** One list-changed notification per burst of changes (a redeploy removes and adds). */
  private changed(): void {
    this.listing = undefined;
    if (this.notifyQueued || this.live.size === 0) return;
    this.notifyQueued = true;
    setImmediate(() => {
      this.notifyQueued = false;
      for (const server of this.live) server.sendToolListChanged().catch(() => undefined);
    });
  }
}

/** What a server serving tasks declares: task-augmented `tools/call`, `tasks/list` and `tasks/cancel`. */
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * A receiver that does not declare tasks "MUST process requests normally, ignoring any
 * task-augmentation metadata" (spec 2025-11-25); the SDK's `Server` would refuse them instead, so
 * the `task` field of a `tools/call` is dropped on its way in.
 */
function ignoreTaskAugmentation(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if ("method" in message && message.method === "tools/call" && "id" in message && message.params && "task" in message.params) {
      const { task: _, ...params } = message.params;
      return deliver({ ...message, params }, extra);
    }
    return deliver(message, extra);
  };
}

/**
 * A JSON-RPC error a request handler throws: the SDK (and direct-tool-call.ts) answer with its
 * `code` and `message` as they are (the SDK's McpError would prefix the message with "MCP error").
 */
export class ProtocolError extends Error {
  override name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The progress callback of a call whose client sent `progressToken`, else undefined. The counter
 * starts at 1 and grows by one per message (the spec wants it to increase; no `total` is known).
 */
export function progressReporter(token: ProgressToken | undefined, send: (notification: ServerNotification) => Promise<void>): ToolContext["progress"] {
  if (token === undefined) return undefined;
  let progress = 0;
  return (message) => send({ method: "notifications/progress", params: { progressToken: token, progress: ++progress, message } });
}

/** Request headers as a tool sees them: lower-cased names, one string per header. */
export function headersOf(headers: Record<string, string | string[] | undefined> | undefined): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}
