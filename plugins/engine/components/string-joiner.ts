/**
 * @module StringJoiner (haystack.components.joiners.string_joiner): the strings of several senders
 * (a lazy variadic socket) as one list, in arrival order.
 */
import * as v from "valibot";
import { Component, output, variadic } from "../component.js";

export class StringJoiner extends Component {
  static override readonly type = "haystack.components.joiners.string_joiner.StringJoiner";
  static override readonly aliases = ["StringJoiner"];

  protected inputSpecs() {
    return { strings: variadic(v.string()) };
  }

  protected outputSpecs() {
    return { strings: output(v.array(v.string())) };
  }

  run(inputs: { strings: string[] }) {
    return { strings: [...(inputs.strings ?? [])] };
  }
}
