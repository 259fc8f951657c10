import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { parse as parseYaml } from "yaml";
import { definePlugin, type KernelOptions } from "svc/plugin";
import openapiPlugin, { type OpenApiDocument, type OpenApiPlugin } from "../../../plugins/openapi/index.js";
import { SchemaSet } from "../../../plugins/openapi/schemas.js";
import { startKernel, type TestKernel } from "../../helpers/kernel.js";

const version = (JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8")) as { version: string }).version;

const QA = `import * as v from "valibot";
import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Answers questions";
  static inputSchema = v.object({ question: v.pipe(v.string(), v.description("The question")), top_k: v.optional(v.number(), 3) });
  static outputSchema = v.string();
  runApi(input: { question: string }) { return input.question; }
}
`;

const UPLOAD = `import * as v from "valibot";
import { BasePipelineWrapper, uploadedFiles } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Reads files";
  static inputSchema = v.object({ note: v.pipe(v.string(), v.description("A note")), files: uploadedFiles() });
  runApi(input: { files: unknown[] }) { return input.files.length; }
}
`;

const CHAT_ONLY = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  runChatCompletion() { return "hi"; }
}
`;

/** A plugin with documented, undocumented and hidden routes. */
const probe = definePlugin({
  name: "probe",
  setup(kernel) {
    const Item = v.object({ id: v.string(), size: v.pipe(v.number(), v.description("Bytes")) });
    kernel.route("GET", "/probe/items/:id", () => ({ id: "1", size: 2 }), {
      docs: { summary: "One item", description: "Reads one item", tags: ["probe"], operationId: "get_item", response: Item },
    });
    kernel.route("POST", "/probe/echo", () => ({}), { docs: { summary: "Echo", body: v.object({ text: v.string() }) } });
    kernel.route("GET", "/probe/plain", () => ({}));
    kernel.route("GET", "/probe/hidden", () => ({}), { docs: false });
    kernel.route("POST", "/probe/:name/run", () => ({}), { docs: { summary: "generic run" } });
  },
});

interface Started extends TestKernel {
  plugin: OpenApiPlugin;
  doc(): Promise<OpenApiDocument>;
  deploy(name: string, source: string): Promise<unknown>;
}

async function withKernel(fn: (k: Started) => Promise<void>, settings: KernelOptions["settings"] = {}): Promise<void> {
  const plugin = openapiPlugin();
  const pipelinesDir = join(mkdtempSync(join(tmpdir(), "svc-openapi-")), "pipelines");
  const k = await startKernel({ plugins: [probe, plugin], settings: { pipelinesDir, ...settings } });
  const started: Started = {
    ...k,
    plugin,
    doc: async () => (await (await fetch(`${k.url}/openapi.json`)).json()) as OpenApiDocument,
    deploy: (name, source) => k.kernel.deployer.deploy({ kind: "files", name, files: { "pipeline_wrapper.ts": source }, save: false }),
  };
  try {
    await fn(started);
  } finally {
    await k.close();
  }
}

test("JSON and YAML serve the same OpenAPI 3.1 document", () =>
  withKernel(async (k) => {
    await k.deploy("qa", QA);
    const json = await fetch(`${k.url}/openapi.json`);
    assert.is(json.status, 200);
    assert.match(json.headers.get("content-type")!, /^application\/json/);
    const yaml = await fetch(`${k.url}/openapi.yaml`);
    assert.is(yaml.status, 200);
    assert.match(yaml.headers.get("content-type")!, /^application\/yaml/);
    const doc = (await json.json()) as OpenApiDocument;
    assert.equal(parseYaml(await yaml.text()), doc);
    assert.is(doc.openapi, "3.1.0");
    assert.is(doc.info.title, "svc");
    assert.is(doc.info.version, version);
    assert.ok(doc.info.description.length > 0);
    assert.equal(doc.servers, [{ url: "/" }]);
    const error = doc.components.schemas.ErrorBody!.properties!.error as { properties: Record<string, { type: string }>; required: string[] };
    assert.equal(Object.entries(error.properties).map(([k, p]) => `${k}:${p.type}`), ["message:string", "type:string", "code:integer"]);
    assert.equal(error.required, ["message", "type", "code"]);
  }));

test("documented plugin routes appear; hidden routes, its own routes and generic run routes do not", () =>
  withKernel(async (k) => {
    const doc = await k.doc();
    const item = doc.paths["/probe/items/{id}"]!.get!;
    assert.is(item.operationId, "get_item");
    assert.is(item.summary, "One item");
    assert.is(item.description, "Reads one item");
    assert.equal(item.tags, ["probe"]);
    assert.equal(item.parameters, [{ name: "id", in: "path", required: true, schema: { type: "string" } }]);
    assert.equal(item.responses["200"]!.content!["application/json"]!.schema, {
      type: "object",
      properties: { id: { type: "string" }, size: { type: "number", description: "Bytes" } },
      required: ["id", "size"],
    });
    for (const s of ["4XX", "5XX"]) assert.equal(item.responses[s]!.content!["application/json"]!.schema, { $ref: "#/components/schemas/ErrorBody" });
    const echo = doc.paths["/probe/echo"]!.post!;
    assert.equal(echo.requestBody!.content["application/json"]!.schema, { type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    const plain = doc.paths["/probe/plain"]!.get!;
    assert.is(plain.operationId, "get_probe_plain", "an operation id is made up when the route names none");
    assert.ok(plain.responses["4XX"]);
    for (const hidden of ["/probe/hidden", "/probe/{name}/run", "/openapi.json", "/openapi.yaml", "/docs", "/redoc", "/docs-assets/{file}"]) {
      assert.not.ok(doc.paths[hidden], `${hidden} is not documented`);
    }
  }));

test("a deployed pipeline gets its run operation and schemas; undeploy removes them", () =>
  withKernel(async (k) => {
    await k.deploy("qa", QA);
    await k.deploy("chatty", CHAT_ONLY);
    let doc = await k.doc();
    const run = doc.paths["/qa/run"]!.post!;
    assert.is(run.operationId, "qa_run");
    assert.equal(run.tags, ["pipelines"]);
    assert.is(run.summary, "Answers questions");
    assert.equal(run.requestBody!.content, { "application/json": { schema: { $ref: "#/components/schemas/qaRunRequest" } } });
    assert.equal(run.responses["200"]!.content!["application/json"]!.schema, { $ref: "#/components/schemas/qaRunResponse" });
    assert.ok(run.responses["4XX"] && run.responses["5XX"]);
    assert.equal(doc.components.schemas.qaRunRequest, {
      type: "object",
      properties: { question: { type: "string", description: "The question" }, top_k: { type: "number", default: 3 } },
      required: ["question"],
      title: "qaRunRequest",
    });
    assert.equal(doc.components.schemas.qaRunResponse, {
      title: "qaRunResponse",
      type: "object",
      properties: { result: { type: "string" } },
      required: ["result"],
    });
    assert.not.ok(doc.paths["/chatty/run"], "a pipeline without runApi has no run operation");

    await k.kernel.deployer.undeploy("qa");
    doc = await k.doc();
    assert.not.ok(doc.paths["/qa/run"]);
    assert.not.ok(doc.components.schemas.qaRunRequest);
    assert.not.ok(doc.components.schemas.qaRunResponse);
  }));

test("a pipeline that takes files is documented as multipart with binary files", () =>
  withKernel(async (k) => {
    await k.deploy("reader", UPLOAD);
    const doc = await k.doc();
    const run = doc.paths["/reader/run"]!.post!;
    assert.equal(Object.keys(run.requestBody!.content), ["multipart/form-data"]);
    assert.equal(run.requestBody!.content["multipart/form-data"]!.schema, { $ref: "#/components/schemas/readerRunRequest" });
    const request = doc.components.schemas.readerRunRequest!;
    assert.equal(request.properties!.note, { type: "string", description: "A note" });
    assert.equal(request.properties!.files, {
      type: "array",
      items: { type: "string", format: "binary" },
      description: "Files uploaded as repeated multipart `files` parts.",
    });
    assert.equal(request.required, ["note"]);
    assert.equal(doc.components.schemas.readerRunResponse!.properties!.result, {}, "no output schema: any result");
  }));

test("the root path is the server URL and prefixes every page URL", () =>
  withKernel(
    async (k) => {
      assert.equal((await k.doc()).servers, [{ url: "/svc" }]);
      const html = await (await fetch(`${k.url}/docs`)).text();
      assert.ok(html.includes(`data-spec-url="/svc/openapi.json"`));
      assert.ok(html.includes(`src="/svc/docs-assets/swagger-ui-bundle.js"`));
      const redoc = await (await fetch(`${k.url}/redoc`)).text();
      assert.ok(redoc.includes(`src="/svc/docs-assets/redoc.standalone.js"`));
    },
    { rootPath: "/svc/" },
  ));

test("the document is built lazily, served from the cache, and rebuilt once after a change", () =>
  withKernel(async (k) => {
    assert.is(k.plugin.builds, 0, "nothing is built before the first request");
    const first = await (await fetch(`${k.url}/openapi.json`)).text();
    const second = await (await fetch(`${k.url}/openapi.json`)).text();
    const yaml1 = await (await fetch(`${k.url}/openapi.yaml`)).text();
    const yaml2 = await (await fetch(`${k.url}/openapi.yaml`)).text();
    assert.is(second, first);
    assert.is(yaml2, yaml1);
    assert.is(k.plugin.builds, 1);

    await k.deploy("qa", QA);
    assert.is(k.plugin.builds, 1, "a deploy only invalidates");
    assert.ok((await k.doc()).paths["/qa/run"]);
    await k.doc();
    await fetch(`${k.url}/openapi.yaml`);
    assert.is(k.plugin.builds, 2, "one rebuild after the deploy");

    k.kernel.http.route("GET", "/late", () => ({}), { docs: { summary: "Added late" } });
    assert.is((await k.doc()).paths["/late"]!.get!.summary, "Added late");
    await k.doc();
    assert.is(k.plugin.builds, 3, "one rebuild after a route was added");
  }));

test("schema conversion degrades instead of throwing and hoists recursive definitions", () => {
  const schemas = new SchemaSet();
  class Thing {}
  const Input = v.object({ when: v.date(), thing: v.instance(Thing), n: v.pipe(v.string(), v.transform(Number)), broken: v.optional(v.string(), () => { throw new Error("no default"); }) });
  assert.equal(schemas.convert(Input, "input", "x"), {}, "a throwing default degrades the whole schema to {}");
  const converted = schemas.convert(v.object({ when: v.date(), thing: v.instance(Thing), n: v.pipe(v.string(), v.transform(Number)) }), "input", "x");
  assert.equal(converted.properties, { when: { type: "string", format: "date-time" }, thing: {}, n: { type: "string" } });
  const Node: v.GenericSchema = v.object({ name: v.string(), children: v.array(v.lazy(() => Node)) });
  const tree = schemas.convert(v.object({ root: Node }), "output", "Tree");
  assert.not.ok(JSON.stringify(tree).includes("$defs"));
  const [name] = Object.keys(schemas.components);
  assert.is(name, "Tree_0");
  assert.equal((schemas.components.Tree_0!.properties!.children as { items: unknown }).items, { $ref: "#/components/schemas/Tree_0" });
  assert.equal(schemas.convert("not a schema", "input", "y"), {});
});

const LOCAL = /^\/(?!\/)/;

function attributes(html: string, tag: string, attr: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*\\b${attr}="([^"]*)"`, "g"))].map((m) => m[1]!);
}

for (const page of ["docs", "redoc"]) {
  test(`/${page} is an offline page: local assets only, served with their types, under a strict CSP`, () =>
    withKernel(async (k) => {
      const res = await fetch(`${k.url}/${page}`);
      assert.is(res.status, 200);
      assert.match(res.headers.get("content-type")!, /^text\/html/);
      const csp = res.headers.get("content-security-policy")!;
      assert.ok(csp, "CSP header present");
      assert.match(csp, /(^|; )script-src 'self'(;|$)/);
      assert.not.match(csp, /unsafe-eval/);
      assert.match(csp, /(^|; )default-src 'none'(;|$)/);
      const html = await res.text();
      assert.not.match(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
      const scripts = attributes(html, "script", "src");
      const styles = attributes(html, "link", "href").filter((href) => !href.startsWith("data:"));
      assert.ok(scripts.length >= 2);
      for (const url of [...scripts, ...styles]) assert.match(url, LOCAL, `${url} is local`);
      assert.not.match(html, /https?:/);
      const kinds = [[scripts, /^text\/javascript/], [styles, /^text\/css/]] as const;
      for (const [urls, type] of kinds) {
        for (const url of urls) {
          const asset = await fetch(`${k.url}${url}`);
          assert.is(asset.status, 200, url);
          assert.match(asset.headers.get("content-type")!, type, url);
          assert.match(asset.headers.get("cache-control")!, /max-age=\d+/);
          const body = await asset.text();
          assert.ok(body.length > 100, url);
          if (body.length > 10_000) assert.is(asset.headers.get("content-encoding"), "gzip", `${url} is sent compressed`);
          assert.not.ok(body.includes("cdn.redoc.ly"), `${url} loads nothing from a CDN`);
          const again = await fetch(`${k.url}${url}`, { headers: { "if-none-match": asset.headers.get("etag")! } });
          assert.is(again.status, 304, "revalidated by ETag");
        }
      }
    }));
}

test("docs assets: init scripts configure the UIs; unknown files are 404", () =>
  withKernel(async (k) => {
    const init = await (await fetch(`${k.url}/docs-assets/swagger-init.js`)).text();
    assert.match(init, /validatorUrl: null/);
    assert.match(await (await fetch(`${k.url}/docs-assets/redoc-init.js`)).text(), /Redoc\.init\(/);
    for (const name of ["package.json", "index.html", "swagger-ui-bundle.js.map", "..%2Fpackage.json"]) {
      const res = await fetch(`${k.url}/docs-assets/${name}`);
      assert.is(res.status, 404, name);
      await res.arrayBuffer();
    }
  }));

test.run();
