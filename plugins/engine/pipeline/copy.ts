/**
 * @module Haystack's `_deepcopy_with_exceptions` for run values: each component gets its own copy
 * of what it is given (user input sent to several components, a list a component mutates, outputs
 * sent to several receivers), so no component changes another's input. Lists, plain objects,
 * Buffers and the data classes (Document, ByteStream, ChatMessage) are copied; anything else
 * (components, tools, stores, functions, other class instances) is passed as is, as Haystack
 * passes what it cannot or must not copy.
 */
import { ChatMessage } from "../dataclasses/chat-message.js";
import { ByteStream, Document } from "../dataclasses/document.js";

export function deepCopy<T>(value: T): T {
  return copy(value, 0) as T;
}

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) return value.map((x) => copy(x, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(value)) out[k] = copy(x, depth + 1);
    return out;
  }
  if (value instanceof Document) {
    return new Document({
      id: value.id,
      content: value.content,
      blob: value.blob ? (copy(value.blob, depth + 1) as ByteStream) : null,
      meta: copy(value.meta, depth + 1) as Record<string, unknown>,
      score: value.score,
      embedding: value.embedding ? [...value.embedding] : null,
      sparse_embedding: value.sparse_embedding ? { indices: [...value.sparse_embedding.indices], values: [...value.sparse_embedding.values] } : null,
    });
  }
  if (value instanceof ByteStream) return new ByteStream(Buffer.from(value.data), copy(value.meta, depth + 1) as Record<string, unknown>, value.mimeType);
  if (value instanceof ChatMessage) return new ChatMessage(value.role, structuredClone(value.content as object[]) as never, value.name, copy(value.meta, depth + 1) as Record<string, unknown>);
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (value instanceof Map) return new Map([...value].map(([k, x]) => [k, copy(x, depth + 1)]));
  if (value instanceof Set) return new Set([...value].map((x) => copy(x, depth + 1)));
  return value;
}
