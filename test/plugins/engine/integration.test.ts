/**
 * Engine integrations as plugins: a third-party plugin registers a document store and a component
 * by their import paths with `engineIntegration`; YAML naming them deploys and runs while the
 * plugin is loaded, and the types are gone after it closes. The store is a minimal third-party
 * implementation of the base protocol, and passes the base contract.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import enginePlugin, {
  Component,
  Document,
  DocumentWriter,
  ENGINE_REGISTRY,
  EngineRegistry,
  FilterError,
  addAsyncForms,
  documentMatchesFilter,
  engineIntegration,
  isDocumentStore,
  output,
  parseDuplicatePolicy,
  socket,
  type DocumentStore,
  type Filters,
} from "svc/engine";
import { documentStoreContract } from "svc/engine/testing";
import { withPipelineKernel } from "../../helpers/pipelines.js";

const STORE_TYPE = "haystack_integrations.document_stores.acme.document_store.AcmeDocumentStore";
const COMPONENT_TYPE = "haystack_integrations.components.acme.counter.AcmeCounter";

/** Documents in a Map, per `collection` name (shared within the process, like a database table). */
const COLLECTIONS = new Map<string, Map<string, Document>>();

class DuplicateDocumentError extends Error {
  override name = "DuplicateDocumentError";
}

class AcmeDocumentStore implements DocumentStore {
  static readonly type = STORE_TYPE;
  constructor(readonly collection: string) {}
  static fromDict(init: Record<string, unknown>) {
    return new AcmeDocumentStore(String(init.collection ?? "default"));
  }
  toDict() {
    return { type: STORE_TYPE, init_parameters: { collection: this.collection } };
  }
  private get docs() {
    let docs = COLLECTIONS.get(this.collection);
    if (!docs) COLLECTIONS.set(this.collection, (docs = new Map()));
    return docs;
  }
  // Answers promises, as a database store does.
  async count_documents() {
    return this.docs.size;
  }
  async filter_documents(filters?: Filters | null) {
    const all = [...this.docs.values()];
    if (!filters || Object.keys(filters).length === 0) return all;
    if (!("operator" in filters)) throw new FilterError("Invalid filter syntax.");
    return all.filter((d) => documentMatchesFilter(filters, d));
  }
  async write_documents(documents: Document[], policy: string = "NONE") {
    if (!Array.isArray(documents) || documents.some((d) => !(d instanceof Document))) throw new Error("Please provide a list of Documents.");
    const mode = parseDuplicatePolicy(policy);
    let written = 0;
    for (const doc of documents) {
      if (this.docs.has(doc.id) && mode !== "overwrite") {
        if (mode === "skip") continue;
        throw new DuplicateDocumentError(`ID '${doc.id}' already exists.`);
      }
      this.docs.delete(doc.id);
      this.docs.set(doc.id, doc);
      written++;
    }
    return written;
  }
  async delete_documents(ids: string[]) {
    for (const id of ids) this.docs.delete(id);
  }
}
addAsyncForms(AcmeDocumentStore);

const CounterInit = v.object({ document_store: v.custom<DocumentStore>(isDocumentStore, "document_store must be a document store") });

class AcmeCounter extends Component<v.InferOutput<typeof CounterInit>> {
  static override readonly type: string = COMPONENT_TYPE;
  static override readonly initSchema = CounterInit;
  protected inputSpecs() {
    return { documents_written: socket(v.number()) };
  }
  protected outputSpecs() {
    return { total: output(v.number()), written: output(v.number()) };
  }
  async run(inputs: { documents_written: number }) {
    return { total: await this.initParameters.document_store.count_documents(), written: inputs.documents_written };
  }
}

/** Builds documents from texts (so the test does not depend on Documents over JSON). */
class AcmeTexts extends Component<Record<string, never>> {
  static override readonly type = "haystack_integrations.components.acme.texts.AcmeTexts";
  static override readonly initSchema = v.object({});
  protected inputSpecs() {
    return { texts: socket(v.array(v.string())) };
  }
  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }
  run(inputs: { texts: string[] }) {
    return { documents: inputs.texts.map((content) => new Document({ content })) };
  }
}

const acmePlugin = () => engineIntegration({ name: "acme:store", components: [AcmeCounter, AcmeTexts], documentStores: [AcmeDocumentStore] });

const YAML = `components:
  texts:
    type: haystack_integrations.components.acme.texts.AcmeTexts
    init_parameters: {}
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters:
      document_store: &store
        type: ${STORE_TYPE}
        init_parameters: {collection: books}
      policy: SKIP
  counter:
    type: ${COMPONENT_TYPE}
    init_parameters:
      document_store: *store
connections:
  - sender: texts.documents
    receiver: writer.documents
  - sender: writer.documents_written
    receiver: counter.documents_written
inputs:
  texts: texts.texts
outputs:
  total: counter.total
  written: counter.written
`;

const test = suite("engine integrations");

test("a plugin's store and components load from YAML while it is loaded, and are gone after it closes", async () => {
  let registry: EngineRegistry | undefined;
  const probe = { name: "test:probe", dependsOn: ["acme:store"], needs: [ENGINE_REGISTRY], setup: (k: { resolve: (t: typeof ENGINE_REGISTRY) => EngineRegistry }) => void (registry = k.resolve(ENGINE_REGISTRY)) };
  await withPipelineKernel(
    async (k) => {
      assert.ok(registry!.objects.has(STORE_TYPE) && registry!.components.has(COMPONENT_TYPE));
      const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "acme", source_code: YAML, save_file: false }) });
      assert.is(res.status, 200, await res.clone().text());
      const first = await k.run("acme", { texts: ["one", "two"] });
      assert.is(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.result, { counter: { total: 2, written: 2 } }, "Hayhooks' shape: keyed by component");
      const again = await k.run("acme", { texts: ["two", "three"] });
      assert.equal(again.body.result, { counter: { total: 3, written: 1 } });
      assert.equal([...COLLECTIONS.get("books")!.values()].map((d) => d.content), ["one", "two", "three"]);
    },
    { plugins: [enginePlugin(), acmePlugin(), probe as never] },
  );
  assert.not.ok(registry!.objects.has(STORE_TYPE), "the store type is unregistered on close");
  assert.not.ok(registry!.components.has(COMPONENT_TYPE));
  assert.ok(registry!.components.has(DocumentWriter.type), "the engine's own types stay");
});

test("without the plugin the YAML does not deploy: a 4xx naming the type", () =>
  withPipelineKernel(
    async (k) => {
      const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "acme", source_code: YAML, save_file: false }) });
      assert.ok(res.status >= 400 && res.status < 500, String(res.status));
      const body = (await res.json()) as { error: { message: string } };
      assert.match(body.error.message, /haystack_integrations\.components\.acme\.texts\.AcmeTexts/);
    },
    { plugins: [enginePlugin()] },
  ));

test("registerIntegration is all or nothing, unregisters only its own entries, once", () => {
  const registry = new EngineRegistry();
  class Taken extends AcmeCounter {
    static override readonly type = "haystack.components.writers.document_writer.DocumentWriter";
  }
  registry.components.register(DocumentWriter);
  assert.throws(() => registry.registerIntegration({ components: [AcmeCounter, Taken], documentStores: [AcmeDocumentStore] }), /already registered/);
  assert.not.ok(registry.components.has(COMPONENT_TYPE), "nothing of a failed call stays");
  assert.ok(registry.components.has(DocumentWriter.type));
  const fn = () => 1;
  const unregister = registry.registerIntegration({ components: [AcmeCounter], documentStores: [AcmeDocumentStore], functions: { "acme.fn": fn } });
  assert.is(registry.getFunction("acme.fn"), fn);
  assert.throws(() => registry.registerIntegration({ functions: { "acme.fn": fn } }), /already registered/);
  unregister();
  unregister();
  assert.not.ok(registry.components.has(COMPONENT_TYPE) || registry.objects.has(STORE_TYPE) || registry.functions.has("acme.fn"));
  assert.ok(registry.components.has(DocumentWriter.type));
});

test.run();

// A third party's base-only store runs the contract's base cases, here through both method forms.
let n = 0;
const contract = suite("contract: a third-party store (base protocol)");
documentStoreContract({ test: contract, store: () => new AcmeDocumentStore(`contract-${n++}`), extended: false, teardown: (s) => void COLLECTIONS.delete(s.collection) });
contract.run();
