/**
 * @module ListJoiner (haystack.components.joiners.list_joiner): flattens the lists of several
 * senders (a lazy variadic socket) into one, in arrival order. `list_type_` (a type string such as
 * `list[haystack.dataclasses.ChatMessage]`) types the sockets so connections are checked; without
 * it the output is `list[Any]`, which connects only where any list is accepted.
 */
import * as v from "valibot";
import { Component, output, variadic } from "../component.js";
import { schemaForTypeString } from "../type-strings.js";

const Init = v.object({ list_type_: v.optional(v.nullable(v.string()), null) });

export class ListJoiner extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.joiners.list_joiner.ListJoiner";
  static override readonly aliases = ["ListJoiner"];
  static override readonly initSchema = Init;

  private listSchema() {
    const type = this.initParameters.list_type_;
    return type === null ? v.array(v.any()) : schemaForTypeString(type);
  }

  protected inputSpecs() {
    return { values: variadic(this.listSchema()) };
  }

  protected outputSpecs() {
    return { values: output(this.listSchema()) };
  }

  run(inputs: { values: unknown[][] }) {
    return { values: (inputs.values ?? []).flat(1) };
  }
}
