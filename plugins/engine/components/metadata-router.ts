/**
 * @module MetadataRouter (haystack.components.routers.metadata_router): sends each Document or
 * ByteStream to every output whose rule (a Haystack filter dict) it matches, and to `unmatched`
 * when it matches none. `output_type` is Haystack's type string for every output (a list of
 * Documents by default); the input takes Documents and ByteStreams, mixed too, as Haystack's does
 * at run time.
 */
import * as v from "valibot";
import { Component, output, socket } from "../component.js";
import { ByteStream, Document } from "../dataclasses/document.js";
import { documentMatchesFilter, INVALID_FILTER_SYNTAX, type Filters } from "../filters.js";
import { schemaForTypeString } from "../type-strings.js";

const Init = v.object({
  rules: v.record(v.string(), v.record(v.string(), v.any())),
  output_type: v.optional(v.string(), "list[haystack.dataclasses.document.Document]"),
  strict_datetime_comparison: v.optional(v.boolean(), false),
});

type Routed = Document | ByteStream;

export class MetadataRouter extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.routers.metadata_router.MetadataRouter";
  static override readonly aliases = ["MetadataRouter"];
  static override readonly initSchema = Init;

  constructor(init: unknown) {
    super(init);
    // Haystack checks only that every rule names an operator; the rest is checked when it runs.
    for (const rule of Object.values(this.initParameters.rules)) if (!("operator" in rule)) throw new Error(INVALID_FILTER_SYNTAX);
  }

  protected inputSpecs() {
    return { documents: socket(v.array(v.union([v.instance(Document), v.instance(ByteStream)]))) };
  }

  protected outputSpecs() {
    const list = output(schemaForTypeString(this.initParameters.output_type));
    return { ...Object.fromEntries(Object.keys(this.initParameters.rules).map((edge) => [edge, list])), unmatched: list };
  }

  run(inputs: { documents: Routed[] }): Record<string, Routed[]> {
    const rules = Object.entries(this.initParameters.rules) as [string, Filters][];
    const options = { strictDatetimeComparison: this.initParameters.strict_datetime_comparison };
    const routed: Record<string, Routed[]> = Object.fromEntries(rules.map(([edge]) => [edge, []]));
    const unmatched: Routed[] = [];
    for (const item of inputs.documents) {
      let matched = false;
      for (const [edge, rule] of rules) {
        if (documentMatchesFilter(rule, item, options)) {
          routed[edge]!.push(item);
          matched = true;
        }
      }
      if (!matched) unmatched.push(item);
    }
    routed.unmatched = unmatched;
    return routed;
  }
}
