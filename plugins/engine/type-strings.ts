/**
 * @module Haystack's type strings in YAML (`int`, `str`, `list[str]`, `typing.List[int]`,
 * `Optional[str]`, `haystack.dataclasses.ChatMessage`, …) as valibot schemas, for components whose
 * socket types come from init parameters (BranchJoiner, ConditionalRouter).
 */
import * as v from "valibot";
import { ChatMessage } from "./dataclasses/chat-message.js";
import { ByteStream, Document } from "./dataclasses/document.js";
import { ExtractedAnswer } from "./dataclasses/extracted-answer.js";
import { GeneratedAnswer } from "./dataclasses/generated-answer.js";

const NAMED: Record<string, () => v.GenericSchema> = {
  str: () => v.string(),
  int: () => v.pipe(v.number(), v.integer()),
  float: () => v.number(),
  bool: () => v.boolean(),
  dict: () => v.record(v.string(), v.unknown()),
  any: () => v.any(),
  none: () => v.null(),
  chatmessage: () => v.instance(ChatMessage),
  document: () => v.instance(Document),
  bytestream: () => v.instance(ByteStream),
  generatedanswer: () => v.instance(GeneratedAnswer),
  extractedanswer: () => v.instance(ExtractedAnswer),
};

export function schemaForTypeString(text: string): v.GenericSchema {
  const t = text.trim().replace(/^typing\./, "").replace(/^(haystack\.)?(dataclasses\.)?/, "");
  const generic = /^(\w+)\[(.*)\]$/.exec(t);
  if (generic) {
    const [, outer, inner] = generic;
    const args = splitTopLevel(inner!);
    switch (outer!.toLowerCase()) {
      case "list":
      case "sequence":
        return v.array(schemaForTypeString(args[0] ?? "Any"));
      case "optional":
        return v.nullish(schemaForTypeString(args[0] ?? "Any"));
      case "union":
        return v.union(args.map(schemaForTypeString));
      case "dict":
      case "mapping":
        return v.record(v.string(), schemaForTypeString(args[1] ?? "Any"));
      default:
        return v.any();
    }
  }
  const base = t.split(".").pop()!.toLowerCase();
  return (NAMED[base] ?? (() => v.any()))();
}

/** The comma-separated arguments of a type string's brackets, nested brackets kept whole. */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "[") depth++;
    if (ch === "]") depth--;
    if (ch === "," && depth === 0) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
