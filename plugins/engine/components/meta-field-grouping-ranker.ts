/**
 * @module MetaFieldGroupingRanker (haystack.components.rankers.meta_field_grouping_ranker):
 * reorders documents into groups by a meta field (`group_by`), subgroups (`subgroup_by`), each
 * sorted by `sort_docs_by`, groups in first-seen order; documents without a group go last.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { pythonRepr } from "../jinja.js";
import { deduplicateDocuments } from "./deduplicate-documents.js";

const Init = v.object({
  group_by: v.string(),
  subgroup_by: v.optional(v.nullable(v.string()), null),
  sort_docs_by: v.optional(v.nullable(v.string()), null),
});

/** Python's str() of a meta value. */
const pyStr = (value: unknown) => (typeof value === "string" ? value : pythonRepr(value));

/**
 * Python's sort by (value is None, value): None last; values of types Python cannot compare
 * (a number and a string) make the sort fail, and the group keeps its order.
 */
function sortByField(docs: Document[], field: string): string | null {
  const kinds = new Set(docs.map((d) => d.meta[field]).filter((x) => x !== null && x !== undefined).map((x) => (typeof x === "boolean" ? "number" : typeof x)));
  if (kinds.size > 1 || [...kinds].some((k) => k !== "number" && k !== "string")) return `'<' not supported between instances of the values of '${field}'`;
  const key = (d: Document) => d.meta[field];
  docs.sort((a, b) => {
    const [x, y] = [key(a), key(b)] as [any, any];
    const [xn, yn] = [x === null || x === undefined, y === null || y === undefined];
    if (xn || yn) return Number(xn) - Number(yn);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return null;
}

export class MetaFieldGroupingRanker extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.rankers.meta_field_grouping_ranker.MetaFieldGroupingRanker";
  static override readonly aliases = ["MetaFieldGroupingRanker"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { documents: socket(v.array(v.instance(Document))) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: { documents: Document[] }, ctx?: ComponentContext) {
    if (!inputs.documents?.length) return { documents: [] };
    const { group_by, subgroup_by, sort_docs_by } = this.initParameters;
    const groups = new Map<string, Map<string, Document[]>>();
    const ungrouped: Document[] = [];
    for (const doc of deduplicateDocuments(inputs.documents)) {
      const value = doc.meta[group_by];
      const group = value === undefined ? "" : pyStr(value);
      if (!group) {
        ungrouped.push(doc);
        continue;
      }
      const subgroup = subgroup_by && subgroup_by in doc.meta ? pyStr(doc.meta[subgroup_by]) : "no_subgroup";
      const subgroups = groups.get(group) ?? new Map<string, Document[]>();
      groups.set(group, subgroups);
      subgroups.set(subgroup, [...(subgroups.get(subgroup) ?? []), doc]);
    }
    const ordered: Document[] = [];
    for (const subgroups of groups.values()) {
      for (const docs of subgroups.values()) {
        const problem = sort_docs_by ? sortByField(docs, sort_docs_by) : null;
        if (problem) {
          const message = `Tried to sort Documents with IDs ${docs.map((d) => d.id).join(",")}, but got TypeError with the message: ${problem}\nKeeping the original order of the Documents in this group since sorting by '${sort_docs_by}' is not possible.`;
          if (ctx?.log) ctx.log.warn(message);
          else console.warn(message);
        }
        ordered.push(...docs);
      }
    }
    return { documents: [...ordered, ...ungrouped] };
  }
}
