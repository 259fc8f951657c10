import { test } from "uvu";
import * as assert from "uvu/assert";
import { DROP, HttpError, KernelError, NOOP_TRACER, TRACE_ACCESS, accessToken, allow, deny, type RunCall, type Span, type Tags, type Tracer } from "svc/plugin";
import { createContainer, InvocationStream, KernelHooks } from "svc/internal";
import { defaultPolicies } from "../../kernel/hooks/auth-hook.js";

function makeHooks() {
  const c = createContainer();
  for (const [scope, policy] of Object.entries(defaultPolicies)) c.register(accessToken(scope), { useValue: policy });
  const reported: string[] = [];
  const hooks = new KernelHooks(c, (hook, plugin, error) => reported.push(`${hook}:${plugin}:${(error as Error).message}`));
  return { hooks, container: c, reported };
}

const call = (over: Partial<RunCall> = {}): RunCall => ({
  pipeline: "p",
  method: "runApi",
  transport: "rest",
  input: { n: 1 },
  signal: new AbortController().signal,
  ...over,
});

// ---- deploy: series events and source handlers

test("deploy events run in registration order with pre/post", async () => {
  const { hooks } = makeHooks();
  const seen: string[] = [];
  hooks.deploy.undeployed.tap("b", (n) => void seen.push(`b:${n}`));
  hooks.deploy.undeployed.tap("last", (n) => void seen.push(`last:${n}`), { order: "post" });
  hooks.deploy.undeployed.tap("c", async (n) => {
    await new Promise((r) => setTimeout(r, 5));
    seen.push(`c:${n}`);
  });
  hooks.deploy.undeployed.tap("first", (n) => void seen.push(`first:${n}`), { order: "pre" });
  await hooks.deploy.undeployed.call("x");
  assert.equal(seen, ["first:x", "b:x", "c:x", "last:x"]);
});

test("a failing deploy event tap stops the series and names plugin and hook", async () => {
  const { hooks } = makeHooks();
  const seen: string[] = [];
  hooks.deploy.undeployed.tap("mcp", () => {
    throw new Error("boom");
  });
  hooks.deploy.undeployed.tap("later", () => void seen.push("later"));
  try {
    await hooks.deploy.undeployed.call("x");
    assert.unreachable();
  } catch (error) {
    assert.instance(error, KernelError);
    assert.is((error as KernelError).code, "KERNEL_ERR_HOOK");
    assert.match((error as Error).message, "Hook 'deploy.undeployed' tapped by plugin 'mcp' failed: boom");
  }
  assert.equal(seen, []);
});

test("one source handler per kind", async () => {
  const { hooks } = makeHooks();
  const handler = async () => ({ description: "d", wrapper: {}, capabilities: { api: true, chat: false, response: false }, skipMcp: false, requiresFiles: false });
  hooks.deploy.registerSource("engine", "yaml", handler);
  assert.is(hooks.deploy.sourceOf("yaml")?.load, handler);
  assert.is(hooks.deploy.sourceOf("files"), undefined);
  assert.equal(hooks.deploy.sourceKinds, ["yaml"]);
  assert.throws(() => hooks.deploy.registerSource("other", "yaml", handler), /'yaml', which is already handled/);
});

// ---- run: interceptor chain

test("run interceptors nest in order, pre outermost, post innermost", async () => {
  const { hooks } = makeHooks();
  const trail: string[] = [];
  const layer = (name: string) => async (c: RunCall, next: (c?: RunCall) => Promise<unknown>) => {
    trail.push(`>${name}`);
    const r = await next();
    trail.push(`<${name}`);
    return r;
  };
  hooks.run.tap("a", layer("a"));
  hooks.run.tap("z", layer("z"), { order: "post" });
  hooks.run.tap("b", layer("b"));
  hooks.run.tap("p", layer("p"), { order: "pre" });
  const result = await hooks.run.call(call(), async () => {
    trail.push("target");
    return 42;
  });
  assert.is(result, 42);
  assert.equal(trail, [">p", ">a", ">b", ">z", "target", "<z", "<b", "<a", "<p"]);
});

test("an interceptor can rewrite the call and the result", async () => {
  const { hooks } = makeHooks();
  hooks.run.tap("rewrite", async (c, next) => {
    const r = (await next({ ...c, input: { n: 2 } })) as number;
    return r * 10;
  });
  const result = await hooks.run.call(call(), async (c) => (c.input as { n: number }).n);
  assert.is(result, 20);
});

test("next(changes) may change what the call's class exposes as a getter; the class is kept", async () => {
  const { hooks } = makeHooks();
  class GetterCall {
    readonly pipeline = "p";
    readonly method = "runApi";
    readonly transport = "test";
    readonly input = {};
    get signal(): AbortSignal {
      return new AbortController().signal;
    }
    get span(): Span | undefined {
      return undefined;
    }
  }
  const marker = { name: "outer" } as Span;
  hooks.run.tap("tracer", (c, next) => next({ span: marker }));
  const seen = (await hooks.run.call(new GetterCall(), (c) => c)) as GetterCall;
  assert.is(seen.span, marker);
  assert.instance(seen, GetterCall);
});

test("an interceptor can short-circuit: the target and inner taps never run", async () => {
  const { hooks } = makeHooks();
  let inner = false;
  let target = false;
  hooks.run.tap("cache", async () => "cached");
  hooks.run.tap("inner", async (c, next) => {
    inner = true;
    return next();
  });
  const result = await hooks.run.call(call(), async () => {
    target = true;
    return "fresh";
  });
  assert.is(result, "cached");
  assert.not.ok(inner);
  assert.not.ok(target);
});

test("an interceptor that throws is attributed; an HttpError passes unchanged", async () => {
  const { hooks } = makeHooks();
  hooks.run.tap("outer", async (c, next) => next());
  hooks.run.tap("limits", async () => {
    throw new Error("quota exceeded");
  });
  try {
    await hooks.run.call(call(), async () => 1);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, "Hook 'run' tapped by plugin 'limits' failed: quota exceeded");
    assert.equal([(error as KernelError).plugin, (error as KernelError).hook], ["limits", "run"], "named as fields too");
  }
  const { hooks: h2 } = makeHooks();
  const limited = new HttpError(429, "slow down");
  h2.run.tap("limits", async () => {
    throw limited;
  });
  try {
    await h2.run.call(call(), async () => 1);
    assert.unreachable();
  } catch (error) {
    assert.is(error, limited);
    assert.is(limited.message, "slow down");
    assert.equal([limited.plugin, limited.hook], ["limits", "run"]);
  }
});

test("an interceptor tapped with appliesTo runs only for the calls it applies to; a throwing appliesTo is attributed", async () => {
  const { hooks } = makeHooks();
  const order: string[] = [];
  hooks.run.tap("outer", async (c, next) => (order.push("outer"), next()));
  hooks.run.tap("limits", async (c, next) => (order.push(`limits ${c.pipeline}`), next()), { appliesTo: (c) => c.pipeline === "limited" });
  hooks.run.tap("inner", async (c, next) => (order.push("inner"), next()));
  assert.is(await hooks.run.call(call(), async () => 1), 1);
  assert.equal(order, ["outer", "inner"], "left out");
  order.length = 0;
  assert.is(await hooks.run.call(call({ pipeline: "limited" }), async () => 2), 2);
  assert.equal(order, ["outer", "limits limited", "inner"], "in its place");

  const { hooks: h2 } = makeHooks();
  h2.run.tap("limits", async (c, next) => next(), {
    appliesTo: () => {
      throw new Error("no registry");
    },
  });
  try {
    await h2.run.call(call(), async () => 1);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, "Hook 'run' tapped by plugin 'limits' failed: no registry");
  }
});

test("errors of the target pass through interceptors unwrapped", async () => {
  const { hooks } = makeHooks();
  const seen: unknown[] = [];
  hooks.run.tap("observer", async (c, next) => {
    try {
      return await next();
    } catch (error) {
      seen.push(error);
      throw error;
    }
  });
  hooks.run.tap("inner", async (c, next) => next());
  const failure = new Error("pipeline failed");
  try {
    await hooks.run.call(call(), async () => {
      throw failure;
    });
    assert.unreachable();
  } catch (error) {
    assert.is(error, failure);
  }
  assert.equal(seen, [failure]);
});

test("calling next twice is an error", async () => {
  const { hooks } = makeHooks();
  hooks.run.tap("twice", async (c, next) => {
    await next();
    return next();
  });
  try {
    await hooks.run.call(call(), async () => 1);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, "next() called more than once");
  }
});

// ---- stream: item waterfall and notifications

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
const streamCall = call({ pipeline: "p", method: "runChatCompletion", transport: "openai" });
const info = { call: streamCall, pipeline: "p", transport: "openai", kind: "chat.chunk" };
/** A stream read through the hook, as an invocation reads it. */
const pipe = <T>(hooks: KernelHooks, source: AsyncIterable<T> | Iterable<T>) => new InvocationStream<T>(source, info, hooks.stream, streamCall.signal);

test("stream taps rewrite and drop items in order", async () => {
  const { hooks } = makeHooks();
  hooks.stream.tap("upper", { item: (x) => String(x).toUpperCase() });
  hooks.stream.tap("filter", { item: (x) => (x === "SECRET" ? DROP : undefined) });
  hooks.stream.tap("suffix", { item: async (x) => `${x}!` });
  const items = await collect(pipe(hooks, ["a", "secret", "b"]));
  assert.equal(items, ["A!", "B!"]);
});

test("stream notifications: start, end with counts; error; abort when the consumer stops", async () => {
  const { hooks } = makeHooks();
  const events: string[] = [];
  hooks.stream.tap("obs", {
    item: (x) => (x === 2 ? DROP : x),
    start: () => void events.push("start"),
    end: (_i, s) => void events.push(`end:${s.items}`),
    error: (_i, e) => void events.push(`error:${(e as Error).message}`),
    abort: (_i, s) => void events.push(`abort:${s.items}`),
  });
  assert.equal(await collect(pipe(hooks, [1, 2, 3])), [1, 3]);
  assert.equal(events, ["start", "end:2"]);

  events.length = 0;
  async function* failing() {
    yield 1;
    throw new Error("upstream");
  }
  try {
    await collect(pipe(hooks, failing()));
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, "upstream");
  }
  assert.equal(events, ["start", "error:upstream"]);

  events.length = 0;
  let finalized = false;
  async function* endless() {
    try {
      for (let i = 10; ; i++) yield i;
    } finally {
      finalized = true;
    }
  }
  for await (const x of pipe(hooks, endless())) if (x === 11) break;
  assert.equal(events, ["start", "abort:2"]);
  assert.ok(finalized, "stopping the stream stops the source");
});

test("a throwing item tap fails the stream, attributed; a throwing observer is only reported", async () => {
  const { hooks, reported } = makeHooks();
  hooks.stream.tap("bad-observer", {
    start: () => {
      throw new Error("observer broke");
    },
  });
  assert.equal(await collect(pipe(hooks, [1])), [1]);
  assert.equal(reported, ["stream.start:bad-observer:observer broke"]);

  hooks.stream.tap("bad-item", {
    item: () => {
      throw new Error("cannot");
    },
  });
  try {
    await collect(pipe(hooks, [1]));
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, "Hook 'stream.item' tapped by plugin 'bad-item' failed: cannot");
    assert.equal([(error as KernelError).plugin, (error as KernelError).hook], ["bad-item", "stream.item"]);
  }
});

// ---- trace: no-op until installed, fan-out

class RecordingTracer implements Tracer {
  readonly spans: { name: string; tags: Tags; parent?: string; ended: boolean; error?: unknown }[] = [];
  startSpan(name: string, tags: Tags = {}, parent?: Span): Span {
    const record = { name, tags: { ...tags }, parent: parent?.name, ended: false, error: undefined as unknown };
    this.spans.push(record);
    const span: Span = {
      name,
      setTag: (k, v) => ((record.tags[k] = v), span),
      setTags: (t) => (Object.assign(record.tags, t), span),
      end: (error) => {
        record.ended = true;
        record.error = error;
      },
    };
    return span;
  }
}

test("the tracer is a no-op until a tracer is installed; then spans reach it", () => {
  const { hooks } = makeHooks();
  const tracer = hooks.trace.tracer;
  assert.not.ok(tracer.active);
  const noop = tracer.startSpan("before", { a: 1 });
  noop.setTag("b", 2).end();
  assert.is(NOOP_TRACER.startSpan("x").name, "x");

  const recorder = new RecordingTracer();
  hooks.trace.tap("tracing", recorder);
  assert.ok(tracer.active, "the same proxy now delegates");
  const root = tracer.startSpan("svc.run", { pipeline: "p" });
  const child = tracer.startSpan("engine.component", {}, root);
  child.setTag("component", "llm").end();
  root.end(new Error("failed"));
  assert.equal(
    recorder.spans.map((s) => [s.name, s.parent, s.ended]),
    [
      ["svc.run", undefined, true],
      ["engine.component", "svc.run", true],
    ],
  );
  assert.is(recorder.spans[1]!.tags.component, "llm");
  assert.is((recorder.spans[0]!.error as Error).message, "failed");
});

test("several tracers each see the whole span tree", () => {
  const { hooks } = makeHooks();
  const a = new RecordingTracer();
  const b = new RecordingTracer();
  hooks.trace.tap("buffer", a);
  hooks.trace.tap("otel", b);
  const root = hooks.trace.tracer.startSpan("root");
  hooks.trace.tracer.startSpan("child", { k: "v" }, root).end();
  root.end();
  for (const t of [a, b]) {
    assert.equal(
      t.spans.map((s) => [s.name, s.parent]),
      [
        ["root", undefined],
        ["child", "root"],
      ],
    );
  }
});

test("a fan-out span takes its ids from the first tracer that assigns them, whatever the order", () => {
  const { hooks } = makeHooks();
  const ids: Tracer = { startSpan: (name) => Object.assign(NOOP_TRACER.startSpan(name), { traceId: "ab".repeat(16), spanId: "cd".repeat(8) }) };
  hooks.trace.tap("metrics", NOOP_TRACER); // timing only, no ids
  hooks.trace.tap("tracing", ids);
  const root = hooks.trace.tracer.startSpan("svc.run");
  assert.is(root.traceId, "ab".repeat(16));
  assert.is(root.spanId, "cd".repeat(8));
});

test("a span one tracer made itself is the parent of the fan-out's child in that tracer", () => {
  const { hooks } = makeHooks();
  const a = new RecordingTracer();
  hooks.trace.tap("tracing", a);
  hooks.trace.tap("metrics", NOOP_TRACER);
  const own = a.startSpan("svc.run"); // as a plugin starts its run span, with its own tracer
  hooks.trace.tracer.startSpan("engine.component", {}, own).end();
  assert.equal(a.spans.map((s) => [s.name, s.parent]), [["svc.run", undefined], ["engine.component", "svc.run"]]);
});

// ---- auth: first decision wins, then the container's policy

const accessRequest = (scope: "traces" | "admin" | "run", state: Record<string, unknown> = {}) =>
  ({ scope, state, req: {} as never }) as const;

test("default policies: run and admin allowed (traces: operator access, see operator-access.test)", async () => {
  const { hooks } = makeHooks();
  assert.equal(await hooks.auth.call(accessRequest("run")), { allow: true });
  assert.equal(await hooks.auth.call(accessRequest("admin")), { allow: true });
});

test("an auth tap short-circuits with 403; taps returning undefined fall through", async () => {
  const { hooks } = makeHooks();
  const asked: string[] = [];
  hooks.auth.tap("observer", (r) => {
    asked.push(r.scope);
    return undefined;
  });
  hooks.auth.tap("admin-lock", (r) => (r.scope === "admin" ? deny(403, "admin is locked") : undefined));
  assert.equal(await hooks.auth.call(accessRequest("admin")), { allow: false, status: 403, message: "admin is locked" });
  assert.equal(await hooks.auth.call(accessRequest("run")), allow());
  assert.equal(asked, ["admin", "run"]);
});

test("the scope's policy is resolved from the container, so it can be swapped", async () => {
  const { hooks, container: c } = makeHooks();
  c.register(TRACE_ACCESS, { useValue: () => deny(403, "not on the operator list") });
  assert.equal(await hooks.auth.call(accessRequest("traces", { tracing_operator: true })), {
    allow: false,
    status: 403,
    message: "not on the operator list",
  });
});

test("a scope without a policy is refused", async () => {
  const { hooks } = makeHooks();
  const d = await hooks.auth.call({ scope: "billing" as never, state: {}, req: {} as never });
  assert.equal(d, { allow: false, status: 403, message: "No access policy is configured for scope 'billing'." });
});

test.run();
