/**
 * @module BranchJoiner: passes on the first value any of its senders delivers (a greedy variadic
 * socket); the building block for loops and for joining router branches. Haystack names its one
 * init parameter `type_` (required); svc's earlier spelling `type` still loads.
 */
import * as v from "valibot";
import { Component, greedyVariadic, output } from "../component.js";
import { schemaForTypeString } from "../type-strings.js";

const Init = v.pipe(
  v.object({ type_: v.optional(v.string()), type: v.optional(v.string()) }),
  v.check((p) => p.type_ !== undefined || p.type !== undefined, "BranchJoiner needs `type_`, the type of its inputs and output (e.g. \"int\", \"list[haystack.dataclasses.ChatMessage]\")."),
  v.transform((p) => ({ type_: (p.type_ ?? p.type)! })),
);

export class BranchJoiner extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.joiners.branch.BranchJoiner";
  static override readonly aliases = ["BranchJoiner"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { value: greedyVariadic(schemaForTypeString(this.initParameters.type_)) };
  }

  protected outputSpecs() {
    return { value: output(schemaForTypeString(this.initParameters.type_)) };
  }

  /** Haystack's form: `type_` only, whichever spelling loaded it. */
  override toDict() {
    return { type: this.type, init_parameters: { type_: this.initParameters.type_ } };
  }

  run(inputs: { value: unknown[] }) {
    if (inputs.value.length !== 1) throw new Error(`BranchJoiner expects only one input, but ${inputs.value.length} were received.`);
    return { value: inputs.value[0] };
  }
}
