/**
 * @module The REST runs API: `POST /{name}/runs` starts a background run (202), `GET /runs` lists
 * them (filters, pages), `GET /runs/{id}` reads one, `GET /runs/{id}/events` streams its events
 * (SSE with `id:` per event: replay, then live; resumes after `Last-Event-ID`), and
 * `POST /runs/{id}/cancel` stops it. With svc:auth a key sees only its own runs (admin: all);
 * another key's run is a 404, as an unknown one.
 */
import { HttpError, ownedBy, parseOr400, type DeployedPipeline, type PluginApi, type Principal, type RequestContext } from "svc/plugin";
import { followRun } from "./follow.js";
import { isFinal, isRunId, type RunRecord } from "./run-record.js";
import type { RunStore } from "./run-store.js";
import type { BackgroundRunner } from "./runner.js";
import { WEBHOOK_URL_FIELD, type RunWebhooks } from "./run-webhooks.js";
import { CreatedSchema, DEFAULT_LIMIT, EventsQuery, LastEventId, ListQuery, ListSchema, MAX_LIMIT, RunBody, RunSchema } from "./schemas.js";

/** How long `POST /runs/{id}/cancel` waits for a running run to stop before answering. */
const CANCEL_WAIT_MS = 5000;

/** A run as clients see it: without the owner's principal id (a key hash). */
export function publicRun(run: RunRecord): Omit<RunRecord, "owner_id"> & { object: "run" } {
  const { owner_id: _, ...rest } = run;
  return { ...rest, object: "run" };
}

export function registerRunRoutes(kernel: PluginApi, store: RunStore, runner: BackgroundRunner, webhooks: RunWebhooks): void {
  const tags = ["runs"];

  /** The run, if it exists and the caller may see it; else the 404. */
  const visibleRun = async (c: RequestContext): Promise<RunRecord> => {
    const id = c.params.id!;
    const run = isRunId(id) ? await store.get(id) : undefined;
    if (!run || !ownedBy(run.owner_id ?? undefined, c.state.principal)) throw new HttpError(404, `Run '${id.slice(0, 64)}' not found`);
    return run;
  };

  kernel.route(
    "POST",
    "/:name/runs",
    async (c) => {
      const pipeline = kernel.pipelineFor(c.params.name!, "runApi");
      const { input, webhookUrl } = await readInput(c, pipeline);
      const metadata = webhookUrl === undefined ? undefined : { [WEBHOOK_URL_FIELD]: webhooks.check(webhookUrl) };
      const run = await store.create({ pipeline: pipeline.name, kind: "rest", owner: ownerOf(c.state.principal), input, metadata });
      runner.start(run, pipeline, c.req.headers);
      c.send(202, { id: run.id, object: "run", status: run.status, pipeline: run.pipeline, created_at: run.created_at }, { location: `/runs/${run.id}` });
    },
    {
      scope: "run",
      docs: {
        operationId: "create_run",
        summary: "Start a background run of a pipeline (answers 202 at once)",
        description:
          "Takes the same JSON body as POST /{name}/run, plus an optional `webhook_url`: once the run is final, a signed POST (Standard Webhooks headers) is sent to it. Follow the run with GET /runs/{id} or GET /runs/{id}/events.",
        tags,
        body: RunBody,
        response: CreatedSchema,
      },
    },
  );

  kernel.route(
    "GET",
    "/runs",
    async (c) => {
      const query = parseOr400(ListQuery, c.query, "Invalid query parameters");
      if (query.cursor !== undefined && !isRunId(query.cursor)) throw new HttpError(400, "Invalid query parameters: cursor: not a cursor from a previous page");
      const principal = c.state.principal;
      const page = await store.list({
        pipeline: query.pipeline,
        status: query.status,
        ownerId: principal && !principal.admin ? principal.id : undefined,
        limit: Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT),
        before: query.cursor,
      });
      return { runs: page.runs.map(publicRun), has_more: page.next !== null, next_cursor: page.next };
    },
    {
      scope: "run",
      docs: {
        operationId: "list_runs",
        summary: "Background runs, newest first",
        description: `Filters: pipeline, status. limit defaults to ${DEFAULT_LIMIT} and is capped at ${MAX_LIMIT}; pass next_cursor as cursor for the next page.`,
        tags,
        response: ListSchema,
      },
    },
  );

  kernel.route("GET", "/runs/:id", async (c) => publicRun(await visibleRun(c)), {
    scope: "run",
    docs: { operationId: "get_run", summary: "One background run: status, result or error", tags, response: RunSchema },
  });

  kernel.route(
    "GET",
    "/runs/:id/events",
    async (c) => {
      const query = parseOr400(EventsQuery, c.query, "Invalid query parameters");
      const header = c.req.headers["last-event-id"];
      const after = typeof header === "string" && header.trim() !== "" ? parseOr400(LastEventId, header, "Invalid Last-Event-ID header") : (query.after ?? 0);
      const run = await visibleRun(c);
      const writer = c.sse();
      for await (const event of followRun(store, run.id, after, c.signal)) {
        await writer.send({ id: String(event.seq), event: event.type, data: event.data });
      }
      writer.end();
    },
    {
      scope: "run",
      lasting: true,
      docs: {
        operationId: "run_events",
        summary: "A run's events as Server-Sent Events: the logged ones, then live ones until the run ends",
        description:
          "Each event has `id:` (its number), `event:` (run.in_progress, run.output, run.completed, run.failed, run.cancelled) and JSON `data:`. Reconnect with the Last-Event-ID header (or ?after=N) to resume after the last event received.",
        tags,
      },
    },
  );

  kernel.route(
    "POST",
    "/runs/:id/cancel",
    async (c) => {
      const run = await visibleRun(c);
      if (isFinal(run.status)) throw new HttpError(409, `Run '${run.id}' already ended (${run.status}): it cannot be cancelled`);
      await store.cancel(run.id);
      return publicRun(await untilFinal(store, run.id, CANCEL_WAIT_MS, c.signal));
    },
    {
      scope: "run",
      docs: {
        operationId: "cancel_run",
        summary: "Cancel a background run",
        description: `Aborts the wrapper's signal on whichever instance runs it; answers once the run is cancelled (or after ${CANCEL_WAIT_MS / 1000} s with its current state). A run that already ended is a 409.`,
        tags,
        response: RunSchema,
      },
    },
  );
}

function ownerOf(principal: Principal | undefined): { id: string; name: string } | undefined {
  return principal ? { id: principal.id, name: principal.name } : undefined;
}

/**
 * The JSON body, validated by the pipeline's input schema as for `/run` (without `webhook_url`,
 * which is the run's, not the pipeline's); uploads cannot be stored for a background run.
 */
async function readInput(c: RequestContext, pipeline: DeployedPipeline): Promise<{ input: Record<string, unknown>; webhookUrl?: unknown }> {
  if (pipeline.requiresFiles && !pipeline.filesAsJson) {
    throw new HttpError(415, `The pipeline '${pipeline.name}' takes file uploads (multipart): background runs take a JSON body only; use POST /${pipeline.name}/run`);
  }
  const body = (await c.json()) ?? {};
  if (typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "Invalid request body: expected a JSON object");
  const { [WEBHOOK_URL_FIELD]: webhookUrl, ...rest } = body as Record<string, unknown>;
  const schema = pipeline.inputSchema as Parameters<typeof parseOr400>[0] | undefined;
  const input = schema ? (parseOr400(schema, rest) as Record<string, unknown>) : rest;
  return WEBHOOK_URL_FIELD in body ? { input, webhookUrl } : { input };
}

/** The run once final, or as it is after `ms`. */
async function untilFinal(store: RunStore, id: string, ms: number, signal: AbortSignal): Promise<RunRecord> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(ms)]);
  for await (const _ of followRun(store, id, Number.MAX_SAFE_INTEGER, deadline, 200)) break;
  const run = await store.get(id);
  if (!run) throw new HttpError(404, `Run '${id}' not found`);
  return run;
}
