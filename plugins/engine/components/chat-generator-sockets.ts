/**
 * @module The sockets Haystack's chat generators share: `messages` (a list of ChatMessages, or
 * for some a plain string), `streaming_callback`, `generation_kwargs` and `tools` in, with
 * `tools_strict` for the OpenAI ones; `replies` out.
 */
import * as v from "valibot";
import { output, socket, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";

export function chatGeneratorInputs(options: { stringMessages?: boolean; toolsStrict?: boolean } = {}): Record<string, InputSocketSpec> {
  const messages = v.array(v.instance(ChatMessage));
  return {
    messages: socket(options.stringMessages ? v.union([messages, v.string()]) : messages),
    streaming_callback: socket(v.nullable(v.function()), { default: null }),
    generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }),
    tools: socket(v.nullable(v.array(v.unknown())), { default: null }),
    ...(options.toolsStrict ? { tools_strict: socket(v.nullable(v.boolean()), { default: null }) } : {}),
  };
}

export function chatGeneratorOutputs(): Record<string, OutputSocketSpec> {
  return { replies: output(v.array(v.instance(ChatMessage))) };
}
