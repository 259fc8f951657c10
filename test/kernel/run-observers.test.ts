/**
 * The `run` hook's observer layers: ordered among interceptors, told how the layers inside settled
 * the call (as that layer's caller sees it), able to change the call, and costing no promise.
 */
import { createHook } from "node:async_hooks";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { HttpError, KernelError, accessToken, type CallTimes, type Observation, type RunCall, type Span } from "svc/plugin";
import { createContainer, KernelHooks } from "svc/internal";
import { defaultPolicies } from "../../kernel/hooks/auth-hook.js";

function makeHooks(): KernelHooks {
  const c = createContainer();
  for (const [scope, policy] of Object.entries(defaultPolicies)) c.register(accessToken(scope), { useValue: policy });
  return new KernelHooks(c, () => {});
}

const call = (): RunCall => ({ pipeline: "p", method: "runApi", transport: "rest", input: { n: 1 }, signal: new AbortController().signal });

/** An observer writing `>name`, `<name:value` or `!name:message` to the trail. */
function watcher(trail: string[], name: string, changes?: Partial<RunCall>) {
  return {
    start(c: RunCall): Observation<RunCall, unknown> {
      trail.push(`>${name}${c.span ? `(${c.span.name})` : ""}`);
      return {
        changes,
        succeeded: (value) => void trail.push(`<${name}:${String(value)}`),
        failed: (error) => void trail.push(`!${name}:${(error as Error).message}`),
      };
    },
  };
}

test("observers nest among interceptors in tap order and see the changes of outer layers", async () => {
  const hooks = makeHooks();
  const trail: string[] = [];
  hooks.run.observe("tracing", watcher(trail, "t", { span: { name: "run" } as Span }), { order: "pre" });
  hooks.run.tap("limits", async (c, next) => {
    trail.push(">limits");
    const r = await next();
    trail.push("<limits");
    return r;
  }, { order: "pre" });
  hooks.run.observe("monitoring", watcher(trail, "m"));
  hooks.run.tap("double", async (c, next) => 2 * ((await next()) as number));
  hooks.run.observe("metrics", watcher(trail, "x"));
  const result = await hooks.run.call(call(), (c) => {
    trail.push(`target(${c.span?.name})`);
    return 21;
  });
  assert.is(result, 42);
  assert.equal(trail, [">t", ">limits", ">m(run)", ">x(run)", "target(run)", "<x:21", "<m:42", "<limits", "<t:42"]);
});

test("an observer is told the failure its caller sees; inner ones never start when an outer layer refuses", async () => {
  const hooks = makeHooks();
  const trail: string[] = [];
  hooks.run.observe("tracing", watcher(trail, "t"), { order: "pre" });
  hooks.run.tap("limits", () => {
    throw new HttpError(429, "slow down");
  }, { order: "pre" });
  hooks.run.observe("monitoring", watcher(trail, "m"));
  const refused = await hooks.run.call(call(), () => 1).catch((e: unknown) => e);
  assert.instance(refused, HttpError);
  assert.equal(trail, [">t", "!t:slow down"]);

  const h2 = makeHooks();
  const trail2: string[] = [];
  h2.run.observe("monitoring", watcher(trail2, "m"));
  h2.run.tap("broken", async (c, next) => {
    await next();
    throw new Error("bug");
  });
  const failure = new Error("pipeline failed");
  const error = await h2.run.call(call(), async () => 1).catch((e: unknown) => e);
  assert.match((error as Error).message, "Hook 'run' tapped by plugin 'broken' failed: bug");
  assert.equal(trail2, [">m", "!m:Hook 'run' tapped by plugin 'broken' failed: bug"]);
  const passed = await h2.run.call(call(), () => {
    throw failure;
  }).catch((e: unknown) => e);
  assert.is(passed, failure, "the target's error passes unwrapped");
});

test("an observer that throws fails the call, attributed to its plugin; the outer observers are told", async () => {
  const hooks = makeHooks();
  const trail: string[] = [];
  hooks.run.observe("outer", watcher(trail, "o"));
  hooks.run.observe("faulty", {
    start: () => ({
      succeeded() {
        throw new Error("bookkeeping broke");
      },
      failed() {},
    }),
  });
  const error = await hooks.run.call(call(), () => 1).catch((e: unknown) => e);
  assert.instance(error, KernelError);
  assert.equal([(error as KernelError).plugin, (error as KernelError).hook], ["faulty", "run"]);
  assert.equal(trail, [">o", "!o:Hook 'run' tapped by plugin 'faulty' failed: bookkeeping broke"]);

  const h2 = makeHooks();
  h2.run.observe("refuses", {
    start() {
      throw new Error("cannot start");
    },
  });
  const e2 = await h2.run.call(call(), () => 1).catch((e: unknown) => e);
  assert.equal([(e2 as KernelError).plugin, (e2 as KernelError).hook], ["refuses", "run"]);
});

test("an observer that returns nothing watches nothing; the run goes on", async () => {
  const hooks = makeHooks();
  hooks.run.observe("idle", { start: () => undefined });
  assert.is(await hooks.run.call(call(), () => 7), 7);
});

test("observers cost no promise: as many as a call without taps", async () => {
  const count = async (hooks: KernelHooks, target: () => unknown) => {
    await hooks.run.call(call(), target); // the first call of a test pays for one-time work
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === "PROMISE" && promises++) }).enable();
    await hooks.run.call(call(), target);
    hook.disable();
    return promises;
  };
  const bare = makeHooks();
  const observed = makeHooks();
  observed.run.observe("a", watcher([], "a"));
  observed.run.observe("b", watcher([], "b"));
  assert.is(await count(observed, () => 1), await count(bare, () => 1), "a synchronous target");
  const intercepted = makeHooks();
  intercepted.run.tap("i", (c, next) => next());
  const withObservers = makeHooks();
  withObservers.run.observe("a", watcher([], "a"));
  withObservers.run.tap("i", (c, next) => next());
  withObservers.run.observe("b", watcher([], "b"));
  assert.is(await count(withObservers, async () => 1), await count(intercepted, async () => 1), "around an interceptor, an asynchronous target");
});


test("a run with only observers (and interceptors left out by appliesTo) in its way settles at once, with no promise", () => {
  const hooks = makeHooks();
  const seen: string[] = [];
  hooks.run.observe("a", watcher(seen, "a"));
  hooks.run.tap("limits", () => Promise.reject(new Error("never called")), { appliesTo: (c) => c.pipeline === "limited" });
  hooks.run.observe("b", watcher(seen, "b"));
  let promises = 0;
  const hook = createHook({ init: (_id, type) => void (type === "PROMISE" && promises++) }).enable();
  const out = hooks.run.callOrValue(call(), () => 5);
  hook.disable();
  assert.is(out, 5, "the value itself");
  assert.is(promises, 0);
  assert.equal(seen, [">a", ">b", "<b:5", "<a:5"], "the observers were told before it returned");
});

test("every observer of a run is told the same start and end instants, read once for all", async () => {
  const hooks = makeHooks();
  const seen: Record<string, number[]> = {};
  const timed = (name: string) => ({
    start(_c: RunCall, times: CallTimes): Observation<RunCall, unknown> {
      seen[name] = [times.startedAt];
      return {
        succeeded: (_value, t) => void seen[name]!.push(t.endedAt, t.endedAt),
        failed: (_error, t) => void seen[name]!.push(t.endedAt, t.endedAt),
      };
    },
  });
  hooks.run.observe("outer", timed("outer"), { order: "pre" });
  hooks.run.tap("waits", async (_c, next) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return next();
  });
  hooks.run.observe("inner", timed("inner"));
  const before = performance.now();
  assert.is(await hooks.run.call(call(), async () => new Promise((resolve) => setTimeout(() => resolve(3), 20))), 3);
  const after = performance.now();
  // The inner observer starts 5 ms later than the outer one, yet both are told the same start.
  assert.equal(seen.inner, seen.outer);
  const [started, ended, endedAgain] = seen.outer!;
  assert.is(ended, endedAgain, "endedAt does not move once the outcome is being told");
  assert.ok(before <= started! && started! <= ended! && ended! <= after);
  assert.ok(ended! - started! >= 20, "the end is read when the run settled, not at its start");

  // A failing run: the same instants for both, too.
  const failing = makeHooks();
  const instants: number[][] = [];
  for (const name of ["a", "b"]) {
    failing.run.observe(name, {
      start: (_c, times) => {
        const mine = [times.startedAt];
        instants.push(mine);
        return { succeeded: () => undefined, failed: (_e, t) => void mine.push(t.endedAt) };
      },
    });
  }
  await failing.run.call(call(), () => Promise.reject(new Error("no"))).catch(() => undefined);
  assert.equal(instants[0], instants[1]);
  assert.is(instants[0]!.length, 2);
});

test.run();
