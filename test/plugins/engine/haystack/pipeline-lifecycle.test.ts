/**
 * Haystack's pipeline lifecycle tests (haystack test/core/pipeline/test_pipeline_lifecycle.py):
 * which lifecycle methods a pipeline calls. svc components have one `warmUp` and one `close`, each
 * sync or async (awaited either way), so Haystack's `warm_up_async`/`close_async` fall-back cases
 * and its event-loop binding check are Python-only. Haystack's `run` is `concurrencyLimit: 1`,
 * `run_async` the concurrent run.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Component, Pipeline, output } from "svc/engine";

const tick = () => new Promise((r) => setImmediate(r));

/** Records every lifecycle call; its warmUp and close finish asynchronously, so they must be awaited. */
class LifecycleRecorder extends Component {
  readonly events: string[] = [];
  protected inputSpecs() {
    return {};
  }
  protected outputSpecs() {
    return { value: output(v.number()) };
  }
  async warmUp() {
    await tick();
    this.events.push("warm_up");
  }
  run() {
    this.events.push("run");
    return { value: 1 };
  }
  async close() {
    await tick();
    this.events.push("close");
  }
}

/** Synchronous warmUp and close. */
class SyncOnlyRecorder extends LifecycleRecorder {
  override warmUp() {
    this.events.push("warm_up");
    return Promise.resolve();
  }
  override close() {
    this.events.push("close");
    return Promise.resolve();
  }
}

class BareComponent extends Component {
  protected inputSpecs() {
    return {};
  }
  protected outputSpecs() {
    return { value: output(v.number()) };
  }
  run() {
    return { value: 1 };
  }
}

test("test_run_async_uses_warm_up_async: the concurrent run awaits the async warmUp before running", async () => {
  const rec = new LifecycleRecorder();
  await new Pipeline().addComponent("rec", rec).run({ rec: {} });
  assert.equal(rec.events, ["warm_up", "run"]);
});

test("test_sync_run_uses_sync_warm_up: the run one component at a time warms up too", async () => {
  const rec = new SyncOnlyRecorder();
  await new Pipeline().addComponent("rec", rec).run({ rec: {} }, { concurrencyLimit: 1 });
  assert.equal(rec.events, ["warm_up", "run"]);
});

test("test_pipeline_close_calls_sync_close_only", async () => {
  const rec = new SyncOnlyRecorder();
  await new Pipeline().addComponent("rec", rec).close();
  assert.equal(rec.events, ["close"]);
});

test("test_pipeline_close_async_calls_async_close_only: an async close is awaited", async () => {
  const rec = new LifecycleRecorder();
  await new Pipeline().addComponent("rec", rec).close();
  assert.equal(rec.events, ["close"]);
});

test("test_run_does_not_auto_close", async () => {
  const rec = new LifecycleRecorder();
  const pipe = new Pipeline().addComponent("rec", rec);
  await pipe.run({ rec: {} }, { concurrencyLimit: 1 });
  await pipe.run({ rec: {} });
  assert.not.ok(rec.events.includes("close"));
});

test("test_lifecycle_methods_are_optional", async () => {
  const pipe = new Pipeline().addComponent("bare", new BareComponent());
  await pipe.warmUp();
  await pipe.close();
  assert.equal(await pipe.run({ bare: {} }), { bare: { value: 1 } });
});

test("test_async_client_bound_to_run_loop: a client warmUp created is the one the run uses", async () => {
  class AsyncClientComponent extends BareComponent {
    client: { uses: number } | null = null;
    created = 0;
    async warmUp() {
      await tick();
      if (this.client === null) {
        this.client = { uses: 0 };
        this.created++;
      }
    }
    override run() {
      assert.ok(this.client, "warmed up before running");
      this.client.uses++;
      return { value: 1 };
    }
  }
  const component = new AsyncClientComponent();
  const pipe = new Pipeline().addComponent("client_component", component);
  await pipe.warmUp();
  await pipe.run({ client_component: {} });
  assert.equal([component.created, component.client!.uses], [1, 1]);
});

test.run();
