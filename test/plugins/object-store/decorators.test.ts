import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import {
  MemoryBackend,
  ObjectStore,
  errorResult,
  explorable,
  explorableAndReferenceable,
  referenceable,
  type ToolDefinition,
} from "svc/object-store";
import { rejects } from "../../helpers/rejects.js";

function echoTool(): ToolDefinition & { seen: Record<string, unknown>[] } {
  const seen: Record<string, unknown>[] = [];
  return {
    seen,
    name: "echo",
    description: "Echoes its arguments.",
    parameters: {
      data: v.pipe(v.record(v.string(), v.unknown()), v.description("Some data.")),
      threshold: v.optional(v.number(), 10),
      enabled: v.optional(v.boolean()),
      label: v.optional(v.string()),
      items: v.optional(v.array(v.number())),
    },
    async handler(args) {
      seen.push(args);
      return args;
    },
  };
}

test("referenceable: every non-string parameter also admits a string in the schema a client sees", () => {
  const store = new ObjectStore(new MemoryBackend());
  const tool = referenceable({ objectStore: store })(echoTool());
  const schema: any = toJsonSchema(v.object(tool.parameters), { errorMode: "ignore" });
  assert.is(schema.properties.data.anyOf[0].type, "object");
  assert.equal(schema.properties.data.anyOf[1], { type: "string" });
  assert.is(schema.properties.data.description, "Some data.");
  assert.equal(schema.properties.threshold.anyOf[1], { type: "string" });
  assert.is(schema.properties.threshold.default, 10);
  assert.equal(schema.properties.label, { type: "string" }, "string parameters are unchanged");
  assert.equal(schema.required, ["data"]);
  assert.match(tool.description, /accept object references in the form `@obj_id` or `@obj_id\.path\.to\.value`/);
  assert.match(tool.description, /data="@obj_123"/);
});

test("referenceable resolves references (with paths) and fits strings to the parameter's type", async () => {
  const store = new ObjectStore(new MemoryBackend());
  const config = await store.put({ settings: { threshold: 3, flags: [1, 2] }, meta: { a: 1 } });
  const tool = referenceable({ objectStore: store })(echoTool());
  const out: any = await tool.handler({ data: `@${config}.meta`, threshold: `@${config}.settings.threshold`, items: `@${config}.settings.flags` }, {});
  assert.equal(out, { data: { a: 1 }, threshold: 3, enabled: undefined, label: undefined, items: [1, 2] });
  const coerced: any = await tool.handler({ data: '{"x": 1}', threshold: "7", enabled: "yes", items: "[4, 5]" }, {});
  assert.equal(coerced, { data: { x: 1 }, threshold: 7, enabled: true, label: undefined, items: [4, 5] });
  const defaults: any = await tool.handler({ data: {} }, {});
  assert.is(defaults.threshold, 10);
  const plain: any = await tool.handler({ data: {}, label: "@alice" }, {});
  assert.is(plain.label, "@alice", "a string that is no @obj_ reference is left alone");
  await rejects(() => tool.handler({ data: {}, label: `@${config}.settings.threshold` }, {}), /Parameter 'label' expects string, got number from @obj_001\.settings\.threshold\./);
});

test("referenceable errors: a plain string for an object, an unknown id, a missing path, a wrong type", async () => {
  const store = new ObjectStore(new MemoryBackend());
  const id = await store.put({ a: "text" });
  const tool = referenceable({ objectStore: store })(echoTool());
  await rejects(() => tool.handler({ data: "not json" }, {}), /Parameter 'data' expects object, got string 'not json'\. Use '@obj_id' for references\./);
  await rejects(() => tool.handler({ data: {}, threshold: "ten" }, {}), /Parameter 'threshold' expects number, got string 'ten'\. Use '@obj_id' for references\./);
  await rejects(() => tool.handler({ data: "@obj_999" }, {}), /Parameter 'data': Object @obj_999 not found or expired\./);
  await rejects(() => tool.handler({ data: `@${id}.b` }, {}), /^Error: Parameter 'data': Navigation error at b: Object '@obj_001' does not have a value at path 'b'\.$/);
  await rejects(() => tool.handler({ data: `@${id}._x` }, {}), /^Error: Parameter 'data': Invalid path _x: Access to attribute '_x' is not permitted$/);
  await rejects(() => tool.handler({ data: `@${id}.a[` }, {}), /^Error: Parameter 'data': Invalid path 'a\[': unclosed/);
  await rejects(() => tool.handler({ data: `@${id}.a` }, {}), /Parameter 'data' expects object, got string from @obj_001\.a\./);
});

test("explorable stores the result and returns its preview; error results pass through unstored", async () => {
  const store = new ObjectStore(new MemoryBackend());
  const tool = explorable({ objectStore: store })({
    name: "big",
    description: "Returns a big list.  ",
    parameters: {},
    async handler(args) {
      return args.fail ? errorResult("nothing here") : Array.from({ length: 40 }, (_, i) => ({ i }));
    },
  });
  assert.match(tool.description, /^Returns a big list\.\n\nThe output is automatically stored/);
  const preview = (await tool.handler({}, {})) as string;
  assert.match(preview, /^@obj_001 → array \(length: 40\)\n\n\[/);
  assert.match(preview, /… \+15/);
  assert.is(((await store.get("obj_001")) as unknown[]).length, 40);
  assert.equal(await tool.handler({ fail: true }, {}), errorResult("nothing here"));
  assert.is(await store.get("obj_002"), undefined);
});

test("explorableAndReferenceable: resolves obj_001, stores its own result as obj_002", async () => {
  const store = new ObjectStore(new MemoryBackend());
  await store.put({ rows: [1, 2, 3] });
  const tool = explorableAndReferenceable({ objectStore: store })({
    name: "sum",
    description: "Sums numbers.",
    parameters: { numbers: v.array(v.number()) },
    async handler(args) {
      return (args.numbers as number[]).reduce((a, b) => a + b, 0);
    },
  });
  assert.is(await tool.handler({ numbers: "@obj_001.rows" }, {}), "@obj_002 → number\n\n6");
  assert.match(tool.description, /Sums numbers\.\n\nAll parameters accept object references[\s\S]*\n\nThe output is automatically stored/);
});

test("a stored object expires with the store's TTL; its reference then fails", async () => {
  const store = new ObjectStore(new MemoryBackend(), 1);
  const id = await store.put({ a: 1 });
  const tool = referenceable({ objectStore: store })(echoTool());
  assert.equal(((await tool.handler({ data: `@${id}` }, {})) as any).data, { a: 1 });
  await new Promise((r) => setTimeout(r, 1200));
  await rejects(() => tool.handler({ data: `@${id}` }, {}), /Object @obj_001 not found or expired\./);
});

test.run();
