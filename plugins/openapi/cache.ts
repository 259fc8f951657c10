/**
 * @module The document cache: built on the first request after a change, then served as is.
 * (Un)deploys invalidate it; routes registered since the last build are noticed by comparing the
 * length of the kernel's route list. The JSON and YAML texts are made once per build, on first use.
 */
import { stringify } from "yaml";
import type { OpenApiDocument } from "./document.js";

export class DocumentCache {
  /** How many times the document was built (for tests and debugging). */
  builds = 0;
  private doc?: OpenApiDocument;
  private json?: string;
  private yaml?: string;
  private routeCount = -1;

  constructor(
    private readonly build: () => OpenApiDocument,
    private readonly routes: { readonly length: number },
  ) {}

  /** Drops the document; the next request builds it again. */
  invalidate(): void {
    this.doc = undefined;
  }

  get document(): OpenApiDocument {
    if (!this.doc || this.routes.length !== this.routeCount) {
      const routeCount = this.routes.length;
      this.doc = this.build();
      this.routeCount = routeCount;
      this.builds++;
      this.json = this.yaml = undefined;
    }
    return this.doc;
  }

  get jsonText(): string {
    const doc = this.document;
    return (this.json ??= JSON.stringify(doc));
  }

  /** Made from the JSON text, so both say exactly the same (a `Date` default, say). */
  get yamlText(): string {
    const json = this.jsonText;
    return (this.yaml ??= stringify(JSON.parse(json), { aliasDuplicateObjects: false, lineWidth: 0 }));
  }
}
