/**
 * `svc a2a run` as a real process, driven by the SDK's ClientFactory client: card discovery, send,
 * stream, `GET /status`; and A2A calls in the metrics (`GET /metrics`) and traces (`GET /traces`)
 * as the other transports have them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { startSvc } from "../helpers/cli.js";
import { tempDir } from "../helpers/pipelines.js";
import { API_ONLY, ECHO, STREAMER, asTask, clientOf, collect, message, textOf, until } from "../plugins/a2a/fixtures.js";

const TOKEN = "a2a-operator-token";
const operator = { authorization: `Bearer ${TOKEN}` };

function pipelinesDir(): string {
  const dir = join(tempDir("svc-a2a-cli-"), "pipelines");
  for (const [name, source] of [["echo", ECHO], ["streamer", STREAMER], ["api_only", API_ONLY]] as const) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, "pipeline_wrapper.ts"), source);
  }
  return dir;
}

test("svc a2a run: /status lists the agents; the SDK client discovers a card, sends and streams; metrics and traces count the A2A calls", async () => {
  const svc = await startSvc(["a2a", "run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesDir()], {
    env: { SERVICE_TRACING_TOKEN: TOKEN, XDG_CACHE_HOME: tempDir("svc-a2a-cli-cache-") },
  });
  try {
    assert.match(svc.output(), /A2A agents: cards at \/\{name\}\/\.well-known\/agent-card\.json/);
    const status = (await (await fetch(`${svc.url}/status`)).json()) as { status: string; agents: string[] };
    assert.equal({ ...status, agents: [...status.agents].sort() }, { status: "ok", agents: ["echo", "streamer"] });

    const echo = await clientOf(svc.url, "echo");
    const card = await echo.getAgentCard();
    assert.is(card.name, "echo");
    assert.is(card.supportedInterfaces[0]!.url, `${svc.url}/echo/`);
    const task = asTask(await echo.sendMessage(message("over the wire")));
    assert.is(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.is(textOf(task), "echo: user:over the wire");

    const streamer = await clientOf(svc.url, "streamer");
    const events = await collect(streamer.sendMessageStream(message("q")));
    const chunks = events.flatMap((e: StreamResponse) => (e.payload?.$case === "artifactUpdate" ? [(e.payload.value.artifact!.parts[0]!.content as { value: string }).value] : []));
    assert.equal(chunks, ["Hello, ", "world", " (q)"]);
    const last = events.at(-1)!.payload;
    assert.ok(last?.$case === "statusUpdate" && last.value.status?.state === TaskState.TASK_STATE_COMPLETED, JSON.stringify(last));

    // Metrics: the runs by transport a2a (a streamed run settles when its stream ends) and the JSON-RPC route.
    assert.is((await fetch(`${svc.url}/metrics`)).status, 401, "metrics are operator-only here too");
    const metrics = await until(
      async () => (await fetch(`${svc.url}/metrics`, { headers: operator })).text(),
      (text) => /svc_runs_total\{pipeline="streamer",transport="a2a",outcome="succeeded"\} 1\b/.test(text),
    );
    assert.match(metrics, /svc_runs_total\{pipeline="echo",transport="a2a",outcome="succeeded"\} 1\b/);
    assert.match(metrics, /svc_http_requests_total\{route="\/:name\/",method="POST",status="200"\} [2-9]/);
    assert.match(metrics, /svc_http_requests_total\{route="\/:name\/.well-known\/agent-card.json",method="GET",status="200"\} [2-9]/);

    // Traces: one svc.a2a.run trace per task, tagged with the transport and the pipeline.
    type Trace = { entrypoint: string | null; kind: string; state: string; root_span: { name: string; tags: { key: string; value: string }[] } };
    const traces = (await (await fetch(`${svc.url}/traces`, { headers: operator })).json()) as { traces: Trace[] };
    const runs = traces.traces.filter((t) => t.root_span.name === "svc.a2a.run");
    assert.equal(runs.map((t) => t.entrypoint).sort(), ["echo", "streamer"], JSON.stringify(traces.traces.map((t) => t.root_span.name)));
    for (const run of runs) {
      assert.equal([run.kind, run.state], ["run", "ok"]);
      assert.ok(run.root_span.tags.some((tag) => tag.key === "svc.transport" && tag.value === "a2a"), JSON.stringify(run.root_span.tags));
    }
  } finally {
    await svc.stop("SIGKILL");
  }
});

test.run();
