/**
 * @module DocumentWriter: writes documents to a document store with a duplicate policy (NONE,
 * SKIP, OVERWRITE, FAIL; NONE lets the store decide, which for the in-memory store means FAIL).
 * Any store with `write_documents` works, not only the in-memory one. `close` closes the store
 * (when it has a `close`), as Haystack's `close`/`close_async` do.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { parseDuplicatePolicy, type DuplicatePolicy } from "../document-store.js";
import { requiredArgumentMessage } from "../init-parameters.js";

export interface WritableDocumentStore {
  write_documents(documents: Document[], policy?: DuplicatePolicy): number | Promise<number>;
  toDict?(): unknown;
  close?(): unknown;
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
}, requiredArgumentMessage);

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

  /** Haystack's `to_dict` writes the policy's enum name (SKIP), whatever case it was given in. */
  override toDict() {
    const dict = super.toDict();
    return { ...dict, init_parameters: { ...dict.init_parameters, policy: this.initParameters.policy.toUpperCase() } };
  }

  /** Closes the store, if it can be closed. */
  async close(): Promise<void> {
    await this.initParameters.document_store.close?.();
  }

  async run(inputs: { documents: Document[]; policy?: string | null }, _ctx?: ComponentContext) {
    const policy = inputs.policy != null ? parseDuplicatePolicy(inputs.policy) : this.initParameters.policy;
    const documents_written = await this.initParameters.document_store.write_documents(inputs.documents, policy);
    return { documents_written };
  }
}
