/**
 * Progress and cancel of long tool calls, with the SDK's client: a streamed pipeline's parts reach
 * `onprogress` as `notifications/progress` (progress counting up, the part as `message`) on every
 * transport svc serves, and the call's AbortSignal (`notifications/cancelled`) stops the wrapper.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "../../helpers/http.js";
import { wrapper } from "../../helpers/pipelines.js";
import { ECHO, STREAMING, httpClient, sseClient, text, withMcpKernel } from "./fixtures.js";

/** Yields one part, then waits for its signal (a long generation cut short). */
const STALLING = wrapper(
  `async *runApi(_input: unknown, ctx: { signal: AbortSignal }) {
    yield "first part";
    await new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
    yield "never";
  }`,
);

const MODES = ["stateless", "session", "sse"] as const;
type Mode = (typeof MODES)[number];

async function clientFor(mode: Mode, url: string) {
  return mode === "sse" ? sseClient(url) : (await httpClient(url)).client;
}

/** The progress notifications as they came off the wire, before the SDK's client handles them. */
function wireProgress(client: Client): (Progress & { progressToken?: unknown })[] {
  const seen: (Progress & { progressToken?: unknown })[] = [];
  const transport = client.transport!;
  const handle = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if ("method" in message && message.method === "notifications/progress") seen.push(message.params as Progress & { progressToken?: unknown });
    handle(message, extra);
  };
  return seen;
}

test("a streamed pipeline's parts are progress notifications when the client sent a progress token (stateless, session, SSE)", async () => {
  for (const mode of MODES) {
    await withMcpKernel(
      async (k) => {
        await k.deployWrapper("stream", STREAMING);
        await k.deployWrapper("echo", ECHO);
        const client = await clientFor(mode, k.url);
        const wire = wireProgress(client);
        client.onerror = () => undefined; // the SDK's race below is reported there
        try {
          const seen: Progress[] = [];
          const result = await client.callTool({ name: "stream", arguments: {} }, undefined, { onprogress: (p) => seen.push(p) });
          assert.is(text(result), "abc", `the result still carries the whole text (${mode})`);
          const expected = [
            [1, "a"],
            [2, "b"],
            [3, "c"],
          ];
          assert.equal(
            wire.map((p) => [p.progress, p.message]),
            expected,
            `one notification per part before the result, counting up (${mode})`,
          );
          assert.ok(wire.every((p) => p.total === undefined && p.progressToken !== undefined), "the client's token; no total: a stream's length is unknown");
          // Over legacy SSE the parts and the result often arrive in one read, and the SDK's client
          // handles a response before the notifications read with it (typescript-sdk#2580):
          // `onprogress` then misses them. Over Streamable HTTP it hears every one.
          if (mode !== "sse") assert.equal(seen.map((p) => [p.progress, p.message]), expected, `onprogress heard each (${mode})`);

          const quiet: Progress[] = [];
          assert.is(text(await client.callTool({ name: "stream", arguments: {} })), "abc", "without onprogress (no token): just the result");
          assert.is(wire.length, 3, "no token, no progress");
          assert.equal(JSON.parse(text(await client.callTool({ name: "echo", arguments: { text: "x" } }, undefined, { onprogress: (p) => quiet.push(p) }))), { echo: "x" });
          assert.is(quiet.length, 0, "a value result sends no progress");
        } finally {
          await client.close();
        }
      },
      { mcpStateful: mode === "session" },
    );
  }
});

test("cancelling a streamed call after its first progress aborts the wrapper (session, SSE)", async () => {
  for (const mode of ["session", "sse"] as const) {
    await withMcpKernel(
      async (k) => {
        await k.deployWrapper("stall", STALLING);
        const client = await clientFor(mode, k.url);
        try {
          const controller = new AbortController();
          const seen: string[] = [];
          const pending = client.callTool({ name: "stall", arguments: {} }, undefined, {
            signal: controller.signal,
            timeout: 30_000,
            onprogress: (p) => void seen.push(p.message ?? ""),
          });
          await until(() => seen.length === 1, 10_000, `the first progress (${mode})`);
          assert.equal(seen, ["first part"]);
          controller.abort("user pressed stop");
          await pending.then(
            () => assert.unreachable("the call should reject locally"),
            () => undefined,
          );
          await until(() => k.calls[0]?.call.signal.aborted === true, 10_000, `the wrapper's signal to fire (${mode})`);
          await until(() => k.calls[0]?.outcome !== undefined, 10_000, `the run to end (${mode})`);
          assert.equal(seen, ["first part"], "nothing more came after the cancel");
          assert.is(k.calls.length, 1);
        } finally {
          await client.close();
        }
      },
      { mcpStateful: mode === "session" },
    );
  }
});

test.run();
