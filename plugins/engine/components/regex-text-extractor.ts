/**
 * @module RegexTextExtractor (haystack.components.extractors.regex_text_extractor): the first match
 * of a Python regular expression in a text, or in the last of a list of chat messages — its first
 * capture group, or the whole match when the pattern has none (warned at build); "" when nothing
 * matches. The removed `return_empty_on_no_match` still loads, with Haystack's warning.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, warnerOf } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { pythonTypeName } from "../pipeline/span-tags.js";
import { pythonRegExp } from "./python-regex.js";

const Init = v.object({ regex_pattern: v.string(), return_empty_on_no_match: v.optional(v.unknown()) });

export class RegexTextExtractor extends Component<{ regex_pattern: string }> {
  static override readonly type = "haystack.components.extractors.regex_text_extractor.RegexTextExtractor";
  static override readonly aliases = ["RegexTextExtractor"];
  static override readonly initSchema = v.pipe(
    Init,
    v.transform(({ regex_pattern, return_empty_on_no_match }) => {
      if (return_empty_on_no_match !== undefined) console.warn("The `return_empty_on_no_match` init parameter has been removed and will be ignored.");
      return { regex_pattern };
    }),
  );
  private readonly regex: RegExp;

  constructor(init: unknown = {}) {
    super(init);
    this.regex = pythonRegExp(this.initParameters.regex_pattern);
    // A pattern's group count: an alternative that matches "" reports every group, unmatched.
    const groups = new RegExp(`${this.regex.source}|`, this.regex.flags).exec("")!.length - 1;
    if (groups < 1) console.warn(`The provided regex pattern ${this.initParameters.regex_pattern} doesn't contain any capture groups. The entire match will be returned instead.`);
  }

  /** The pattern only: the removed parameter is not written back. */
  override toDict() {
    return { type: this.type, init_parameters: { regex_pattern: this.initParameters.regex_pattern } };
  }

  protected inputSpecs() {
    return { text_or_messages: socket(v.union([v.string(), v.array(v.unknown())])) };
  }

  protected outputSpecs() {
    return { captured_text: output(v.string()) };
  }

  run(inputs: { text_or_messages: string | unknown[] }, ctx?: ComponentContext) {
    const input = inputs.text_or_messages;
    if (typeof input === "string") return { captured_text: this.extract(input) };
    const warn = warnerOf(ctx);
    if (input.length === 0) {
      warn("Received empty list of messages");
      return { captured_text: "" };
    }
    const last = input.at(-1);
    if (!(last instanceof ChatMessage)) throw new TypeError(`Expected ChatMessage object, got <class '${pythonTypeName(last)}'>`);
    if (last.text === null) {
      warn("Last message has no text content");
      return { captured_text: "" };
    }
    return { captured_text: this.extract(last.text) };
  }

  private extract(text: string): string {
    const match = this.regex.exec(text);
    if (!match) return "";
    return match.length > 1 ? (match[1] ?? "") : match[0];
  }
}
