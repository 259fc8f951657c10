import { test } from "uvu";
import * as assert from "uvu/assert";
import enginePlugin, { ChatMessage, Document } from "svc/engine";
import { withPipelineKernel } from "../../helpers/pipelines.js";
import { httpClient, text, withMcpKernel } from "../mcp/fixtures.js";
import { runSvc, startSvc } from "../../helpers/cli.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/pipelines.js";
import openapiPlugin from "../../../plugins/openapi/index.js";
import { CALC_YAML } from "../../fixtures/calc-yaml.js";

const INDEX = `components:
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters:
      document_store:
        type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore
        init_parameters: {index: objects-over-json}
inputs:
  documents: writer.documents
outputs:
  written: writer.documents_written
`;

const QUERY = `components:
  retriever:
    type: haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever
    init_parameters:
      document_store:
        type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore
        init_parameters: {index: objects-over-json}
inputs:
  query: retriever.query
outputs:
  documents: retriever.documents
`;

// A BranchJoiner typed list[ChatMessage] hands the messages it gets straight back.
const MESSAGES = `components:
  joiner:
    type: haystack.components.joiners.branch.BranchJoiner
    init_parameters: {type_: "list[haystack.dataclasses.ChatMessage]"}
inputs:
  messages: joiner.value
outputs:
  messages: joiner.value
`;

test("Documents go in as JSON (Hayhooks' plain fields or Haystack's to_dict) and come out in to_dict form", () =>
  withPipelineKernel(
    async (k) => {
      for (const [name, source_code] of [["index", INDEX], ["query", QUERY], ["messages", MESSAGES]]) {
        const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name, source_code, save_file: false }) });
        assert.is(res.status, 200, await res.text());
      }
      const plain = { content: "Berlin is the capital of Germany", meta: { lang: "en" }, embedding: [0.1, 0.2] };
      const asDict = new Document({ content: "Paris is the capital of France", meta: { lang: "fr" } }).toDict();
      const written = await k.run("index", { documents: [plain, asDict] });
      assert.is(written.status, 200, JSON.stringify(written.body));
      assert.equal(written.body, { result: { writer: { documents_written: 2 } } });

      const found = await k.run("query", { query: "capital of France" });
      assert.is(found.status, 200, JSON.stringify(found.body));
      const top = found.body.result.retriever.documents[0];
      // Haystack's to_dict: meta flattened to the top level, every field present.
      assert.equal(Object.keys(top).sort(), ["blob", "content", "embedding", "id", "lang", "score", "sparse_embedding"]);
      assert.is(top.content, "Paris is the capital of France");
      assert.is(top.lang, "fr");
      assert.is(top.id, asDict.id);

      const bad = await k.run("index", { documents: [{ content: 3 }] });
      assert.is(bad.status, 400);
      assert.match(bad.body.error.message, /documents/);

      const messages = [{ role: "user", content: "plain text" }, ChatMessage.fromAssistant("a reply", { meta: { model: "m" } }).toDict()];
      const echoed = await k.run("messages", { messages });
      assert.is(echoed.status, 200, JSON.stringify(echoed.body));
      assert.equal(echoed.body.result.joiner.value, [
        { role: "user", meta: {}, name: null, content: [{ text: "plain text" }] },
        { role: "assistant", meta: { model: "m" }, name: null, content: [{ text: "a reply" }] },
      ]);
      const noRole = await k.run("messages", { messages: [{ content: "who am I" }] });
      assert.is(noRole.status, 400);

      const openapi = (await (await fetch(`${k.url}/openapi.json`)).json()) as any;
      const text = JSON.stringify(openapi);
      assert.match(text, /"embedding"/, "the OpenAPI document shows a Document's fields");
      assert.match(text, /"mime_type"/);
    },
    { plugins: [enginePlugin(), openapiPlugin()] },
  ));

test("the MCP tool of a YAML pipeline shows Document fields, integers as integer, Hayhooks' default description; it takes JSON objects", () =>
  withMcpKernel(async (k) => {
    await k.kernel.deployer.deploy({ kind: "yaml", name: "index", source: INDEX });
    await k.kernel.deployer.deploy({ kind: "yaml", name: "calc", source: CALC_YAML });
    const { client } = await httpClient(k.url);
    try {
      const { tools } = await client.listTools();
      const index = tools.find((t) => t.name === "index")!;
      const documents = (index.inputSchema.properties as any).documents;
      assert.is(documents.description, "Parameter 'documents'");
      assert.is(documents.type, "array");
      assert.equal(Object.keys(documents.items.properties).sort(), ["blob", "content", "embedding", "id", "meta", "score", "sparse_embedding"]);
      const calc = tools.find((t) => t.name === "calc")!;
      assert.equal((calc.inputSchema.properties as any).value, { type: "integer", description: "Parameter 'value'" });
      const result = JSON.parse(text(await client.callTool({ name: "index", arguments: { documents: [{ content: "over MCP" }] } })));
      assert.equal(result, { writer: { documents_written: 1 } });
      const notInt: any = await client.callTool({ name: "calc", arguments: { value: 1.5 } });
      assert.is(notInt.isError, true);
    } finally {
      await client.close();
    }
  }));

test("`svc pipeline run` sends Documents as JSON params and prints the to_dict form", async () => {
  const cwd = tempDir("svc-objects-");
  mkdirSync(join(cwd, "pipelines"));
  writeFileSync(join(cwd, "pipelines", "index.yml"), INDEX.replace("objects-over-json", "cli"));
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0"], { cwd });
  try {
    const env = { SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(svc.port) };
    const cli = await runSvc(["pipeline", "run", "index", "-p", 'documents=[{"content":"from the CLI","meta":{"a":1}}]'], { cwd, env });
    assert.is(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /"documents_written": 1/);
  } finally {
    await svc.stop("SIGKILL");
  }
});

// Converters take ByteStreams as JSON: text data or Haystack's list of byte values.
const CONVERT = `components:
  converter:
    type: haystack.components.converters.txt.TextFileToDocument
inputs:
  sources: converter.sources
outputs:
  documents: converter.documents
`;
const PAGES = `components:
  html:
    type: haystack.components.converters.html.HTMLToDocument
inputs:
  sources: html.sources
outputs:
  documents: html.documents
`;

test("converters' sources take ByteStreams as JSON (text data or byte values); a non-HTML or empty stream is skipped", () =>
  withPipelineKernel(
    async (k) => {
      for (const [name, source_code] of [["convert", CONVERT], ["pages", PAGES]]) {
        const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name, source_code, save_file: false }) });
        assert.is(res.status, 200, await res.text());
      }
      const out = await k.run("convert", { sources: [{ data: "plain text", meta: { file_path: "/x/a.txt" } }, { data: [...Buffer.from("bytes")], meta: {}, mime_type: "text/plain" }] });
      assert.is(out.status, 200, JSON.stringify(out.body));
      assert.equal(out.body.result.converter.documents.map((d: any) => [d.content, d.file_path]), [["plain text", "a.txt"], ["bytes", undefined]]);
      const latin1 = [...Buffer.from("<html><body><p>caf\xe9</p></body></html>", "latin1")];
      const pages = await k.run("pages", { sources: [{ data: latin1, meta: { encoding: "latin-1" } }, { data: [0xff, 0xfe, 0x00, 0x81], meta: {} }, { data: "", meta: {} }] });
      assert.is(pages.status, 200, JSON.stringify(pages.body));
      assert.equal(pages.body.result.html.documents.map((d: any) => d.content), ["café"]);
      const bad = await k.run("convert", { sources: [{ meta: {} }] });
      assert.is(bad.status, 400);
    },
    { plugins: [enginePlugin()] },
  ));

test.run();
