import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readDashboardToken } from "svc/internal";
import { repoRoot, startSvc, type RunningSvc } from "../helpers/cli.js";
import { rawRequest } from "../helpers/http.js";

const slowPlugin = join(repoRoot, "test/fixtures/plugins/slow.ts");
const ECHO = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  runApi(input: Record<string, unknown>) { return input; }
}
`;

function fixture() {
  const root = mkdtempSync(join(tmpdir(), "svc-cli-tracing-"));
  const pipelines = join(root, "pipelines");
  mkdirSync(join(pipelines, "echo"), { recursive: true });
  writeFileSync(join(pipelines, "echo", "pipeline_wrapper.ts"), ECHO);
  return { pipelines, cache: join(root, "cache") };
}

async function using(svc: RunningSvc, fn: () => Promise<void>) {
  try {
    await fn();
  } finally {
    await svc.stop("SIGKILL");
  }
}

const traces = (url: string, token?: string) => fetch(`${url}/traces`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

test("svc run: GET /traces behind the local credential; the startup deploy and runs are traced", async () => {
  const { pipelines, cache } = fixture();
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelines], { env: { XDG_CACHE_HOME: cache } });
  await using(svc, async () => {
    assert.is((await traces(svc.url)).status, 401);
    const token = await readDashboardToken(join(cache, "svc", "dashboard-token"));
    assert.ok(token, "the credential file exists once the server listens");
    await fetch(`${svc.url}/echo/run`, { method: "POST", body: '{"q":1}' });
    const res = await traces(svc.url, token);
    assert.is(res.status, 200);
    const body = (await res.json()) as any;
    const roots = body.traces.map((t: any) => t.root_span.name).sort();
    assert.equal(roots, ["svc.pipeline.run", "svc.startup.deploy"]);
    assert.equal(body.config, { buffer_capacity: 200, fetch_limit: 100, slow_component_ms: 1000, scope: "process" });
  });
});

test("--workers 2: both workers share one credential", async () => {
  const { pipelines, cache } = fixture();
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelines, "--workers", "2", "--plugin", slowPlugin], {
    env: { XDG_CACHE_HOME: cache },
  });
  await using(svc, async () => {
    await svc.waitFor(/svc listening[^\n]*\n(.|\n)*svc listening/);
    const token = await readDashboardToken(join(cache, "svc", "dashboard-token"));
    const pids = new Set<number>();
    for (let i = 0; i < 20; i++) {
      pids.add(JSON.parse((await rawRequest(`${svc.url}/pid`)).body).pid);
      assert.is((await traces(svc.url, token)).status, 200);
    }
    assert.is(pids.size, 2, "requests reached both workers");
  });
});

test("--without-tracing and SERVICE_TRACING_ENABLED=false remove GET /traces", async () => {
  const { pipelines, cache } = fixture();
  for (const [args, env] of [
    [["--without-tracing"], {}],
    [[], { SERVICE_TRACING_ENABLED: "false" }],
  ] as const) {
    const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelines, ...args], { env: { XDG_CACHE_HOME: cache, ...env } });
    await using(svc, async () => {
      assert.is((await traces(svc.url, "anything")).status, 404);
      assert.is((await fetch(`${svc.url}/echo/run`, { method: "POST", body: "{}" })).status, 200);
    });
  }
});

test.run();
