/**
 * @module The A2A HTTP endpoints, per agent under its pipeline's name (as Hayhooks):
 * `GET /{name}/.well-known/agent-card.json` (public: discovery comes before credentials) and
 * `POST /{name}/`, the JSON-RPC binding (the `run` scope: with svc:auth a key, and the key's
 * pipeline list). The SDK's transport handlers parse and encode JSON-RPC — spec v1.0, and v0.3
 * when the request says 0.3 or no version while the compatibility setting is on; streams go out as
 * SSE, one JSON-RPC response per event. `GET /status` lists the agents on the A2A server's own app.
 */
import { AgentCard, formatSSEErrorEvent } from "@a2a-js/sdk";
import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion, type User } from "@a2a-js/sdk/server";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { HttpError, ROUTES, type PluginApi, type Principal, type RequestContext } from "svc/plugin";
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { agentCard, LEGACY_VERSION } from "./agent-card.js";
import type { AgentDirectory } from "./agents.js";
import { legacyAgentCard } from "./legacy-card.js";
import type { a2aSettings } from "./settings.js";
import { AgentTasks, type TaskServices } from "./task-handler.js";

const CARD_PATH = "/:name/.well-known/agent-card.json";

type JsonRpcAnswer = { jsonrpc: string; id: string | number | null; result?: unknown; error?: unknown };

class KeyUser implements User {
  constructor(private readonly principal: Principal | undefined) {}
  get isAuthenticated(): boolean {
    return this.principal !== undefined;
  }
  get userName(): string {
    return this.principal?.name ?? "";
  }
}

export function registerA2aRoutes(api: PluginApi<typeof a2aSettings>, agents: AgentDirectory, services: TaskServices, pushNotifications: boolean): void {
  const settings = api.settings;
  const legacy = settings.a2aV03Compat;
  let secured: Promise<boolean> | undefined;
  // Whether the run scope refuses an anonymous caller (svc:auth, or a host's policy): asked once.
  const isSecured = () =>
    (secured ??= Promise.resolve(api.authorize({ scope: "run", req: { headers: {} } as IncomingMessage, state: {} })).then((d) => !d.allow));

  const cardOf = async (c: RequestContext): Promise<AgentCard> => {
    const name = c.params.name!;
    const agent = agents.get(name);
    if (!agent) throw new HttpError(404, `No A2A agent '${name.slice(0, 64)}': no deployed pipeline of that name implements runChatCompletion (or it sets skipA2a)`);
    return agentCard({ ...agent, baseUrl: baseUrl(c, settings), legacy, secured: await isSecured(), pushNotifications });
  };

  api.route(
    "GET",
    CARD_PATH,
    async (c) => {
      const card = await cardOf(c);
      const version = headerOf(c, "a2a-version");
      const body = legacy && (version ?? LEGACY_VERSION) === LEGACY_VERSION ? legacyAgentCard(card) : AgentCard.toJSON(card);
      c.send(200, body, { "cache-control": "no-cache", vary: "A2A-Version" });
    },
    { docs: { operationId: "a2a_agent_card", summary: "The A2A agent card of a pipeline", tags: ["a2a"] } },
  );

  // Only `/{name}/`, with the slash (as Hayhooks' per-agent mounts): `/{name}` and every other
  // one-segment path stay with the routes beside it (or the kernel's 404) on the main server.
  api.route("POST", "/:name/", async (c) => answerJsonRpc(c, await cardOf(c), services, legacy), {
    scope: "run",
    lasting: true,
    docs: {
      operationId: "a2a_json_rpc",
      summary: "A2A JSON-RPC (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask, push configs)",
      description: "The A2A protocol's JSON-RPC binding for the agent of this pipeline; see docs/a2a.md.",
      tags: ["a2a"],
    },
  });

  // The A2A server's own health check and agent list, unless the app already has /status (svc:management's).
  if (!api.resolve(ROUTES).some((r) => r.method === "GET" && r.path === "/status")) {
    api.route("GET", "/status", () => ({ status: "ok", agents: agents.names() }), { docs: { operationId: "a2a_status", summary: "A2A server status and agents", tags: ["a2a"] } });
  }
}


async function answerJsonRpc(c: RequestContext, card: AgentCard, services: TaskServices, legacyOn: boolean): Promise<void> {
  let body: unknown;
  try {
    body = await c.json();
  } catch (error) {
    if (error instanceof HttpError && error.status !== 400) throw error; // too large, too slow: the kernel answers
    return c.send(200, { jsonrpc: "2.0", id: null, error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: `Parse error: ${(error as Error).message}` } });
  }
  const id = (body as { id?: string | number } | null)?.id ?? null;
  const version = headerOf(c, "a2a-version");
  const useLegacy = legacyOn && (version ?? LEGACY_VERSION) === LEGACY_VERSION;
  const mapError = useLegacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
  const context = new ServerCallContext({ requestedVersion: version, user: new KeyUser(c.state.principal) });
  let answer: JsonRpcAnswer | AsyncGenerator<JsonRpcAnswer, void, undefined>;
  try {
    validateVersion(context.requestedVersion, card, "JSONRPC");
    const tasks = new AgentTasks(services, c.params.name!, card, { principal: c.state.principal, headers: c.req.headers, signal: c.signal });
    const transport = useLegacy ? new LegacyJsonRpcTransportHandler(tasks) : new JsonRpcTransportHandler(tasks);
    answer = (await transport.handle(body as Record<string, unknown>, context)) as typeof answer;
  } catch (error) {
    const mapped = mapError(error);
    return c.send(mapped.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200, { jsonrpc: "2.0", id, error: mapped });
  }
  if (!(Symbol.asyncIterator in answer)) return c.send(200, answer);
  // A failure before the first event is still a plain JSON-RPC error answer.
  let first: IteratorResult<JsonRpcAnswer, void>;
  try {
    first = await answer.next();
  } catch (error) {
    return c.send(200, { jsonrpc: "2.0", id, error: mapError(error) });
  }
  const writer = c.sse();
  try {
    if (!first.done) await writer.send({ data: first.value });
    for await (const event of { [Symbol.asyncIterator]: () => answer }) {
      await writer.send({ data: event });
      if (writer.closed) break;
    }
  } catch (error) {
    if (!c.signal.aborted) c.res.write(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: mapError(error) }));
  } finally {
    await answer.return?.(undefined);
    writer.end();
  }
}

function headerOf(c: RequestContext, name: string): string | undefined {
  const value = c.req.headers[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Where clients reach this server: the external URL when set, else the address the request came to. */
function baseUrl(c: RequestContext, settings: { a2aExternalUrl?: string; rootPath: string }): string {
  if (settings.a2aExternalUrl) return settings.a2aExternalUrl.replace(/\/+$/, "");
  const scheme = (c.req.socket as TLSSocket).encrypted ? "https" : "http";
  const root = settings.rootPath === "/" ? "" : settings.rootPath.replace(/\/+$/, "");
  return `${scheme}://${c.req.headers.host ?? "localhost"}${root}`;
}
