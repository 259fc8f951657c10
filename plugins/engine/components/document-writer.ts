/**
 * @module DocumentWriter: writes documents to a document store with a duplicate policy (NONE,
 * SKIP, OVERWRITE, FAIL; NONE lets the store decide, which for the in-memory store means FAIL).
 * Any store with `write_documents` works, not only the in-memory one.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { parseDuplicatePolicy, type DuplicatePolicy } from "../document-store.js";

export interface WritableDocumentStore {
  write_documents(documents: Document[], policy?: DuplicatePolicy): number | Promise<number>;
  toDict?(): unknown;
}

const PolicySchema = v.pipe(
  v.string(),
  v.check((p) => ["none", "skip", "overwrite", "fail"].includes(p.toLowerCase()), "policy must be one of NONE, SKIP, OVERWRITE, FAIL"),
  v.transform((p: string) => parseDuplicatePolicy(p)),
);

const Init = v.object({
  document_store: v.custom<WritableDocumentStore>(
    (s) => !!s && typeof (s as WritableDocumentStore).write_documents === "function",
    "document_store must be a document store (an object with write_documents)",
  ),
  policy: v.optional(PolicySchema, "NONE"),
});

export class DocumentWriter extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.writers.document_writer.DocumentWriter";
  static override readonly aliases = ["DocumentWriter"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return {
      documents: socket(v.array(v.instance(Document))),
      policy: socket(v.nullable(v.string()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents_written: output(v.number()) };
  }

  async run(inputs: { documents: Document[]; policy?: string | null }, _ctx?: ComponentContext) {
    const policy = inputs.policy != null ? parseDuplicatePolicy(inputs.policy) : this.initParameters.policy;
    const documents_written = await this.initParameters.document_store.write_documents(inputs.documents, policy);
    return { documents_written };
  }
}
