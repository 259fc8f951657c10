/**
 * @module BranchJoiner: passes on the first value any of its senders delivers (a greedy variadic
 * socket); the building block for loops and for joining router branches.
 */
import * as v from "valibot";
import { Component, greedyVariadic, output } from "../component.js";
import { schemaForTypeString } from "../type-strings.js";

const Init = v.object({ type: v.optional(v.string(), "Any") });

export class BranchJoiner extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.joiners.branch.BranchJoiner";
  static override readonly aliases = ["BranchJoiner"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { value: greedyVariadic(schemaForTypeString(this.initParameters.type)) };
  }

  protected outputSpecs() {
    return { value: output(schemaForTypeString(this.initParameters.type)) };
  }

  run(inputs: { value: unknown[] }) {
    if (inputs.value.length !== 1) throw new Error(`BranchJoiner expects only one input, but ${inputs.value.length} were received.`);
    return { value: inputs.value[0] };
  }
}
