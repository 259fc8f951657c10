/**
 * @module DocumentLengthRouter (haystack.components.routers.document_length_router): splits
 * Documents by the length of their `content` — at most `threshold` characters (or no content, as
 * from a scanned PDF page) to `short_documents`, the rest to `long_documents`. Length counts
 * code points, as Python's `len` does.
 */
import * as v from "valibot";
import { Component, output, socket } from "../component.js";
import { Document } from "../dataclasses/document.js";

const Init = v.object({ threshold: v.optional(v.pipe(v.number(), v.integer()), 10) });
const Documents = v.array(v.instance(Document));

export class DocumentLengthRouter extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.routers.document_length_router.DocumentLengthRouter";
  static override readonly aliases = ["DocumentLengthRouter"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { documents: socket(Documents) };
  }

  protected outputSpecs() {
    return { short_documents: output(Documents), long_documents: output(Documents) };
  }

  run(inputs: { documents: Document[] }) {
    const { threshold } = this.initParameters;
    const short_documents: Document[] = [];
    const long_documents: Document[] = [];
    for (const doc of inputs.documents) {
      if (doc.content === null || doc.content === undefined || [...doc.content].length <= threshold) short_documents.push(doc);
      else long_documents.push(doc);
    }
    return { short_documents, long_documents };
  }
}
