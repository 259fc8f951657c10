/**
 * @module State: the values an Agent carries between steps, shaped by a schema of key → {type}
 * (Haystack type strings such as `str` or `list[Document]`). Tools read from it
 * (`inputs_from_state`) and write to it (`outputs_to_state`). Writing to a list key appends, to any
 * other key replaces, unless a handler says otherwise: the same rules as Haystack's State.
 */
import * as v from "valibot";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { schemaForTypeString } from "../type-strings.js";

export type MergeHandler = (current: unknown, incoming: unknown) => unknown;

export interface StateField {
  type: string;
  handler?: MergeHandler;
}

export type StateSchema = Record<string, StateField>;

/** Both sides as lists, concatenated. */
export const mergeLists: MergeHandler = (current, incoming) => [...asList(current), ...asList(incoming)];
export const replaceValues: MergeHandler = (_current, incoming) => incoming;

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** `list[...]`, `typing.List[...]`, a bare `list`, or anything whose schema is an array. */
export function isListType(type: string): boolean {
  return /^(typing\.)?(list|sequence)\b/i.test(type.trim()) || schemaForTypeString(type).type === "array";
}

/** The socket schema for a state key: the type's schema, or null when not given. */
export function stateSocketSchema(type: string): v.GenericSchema {
  return v.nullable(schemaForTypeString(type));
}

/** `messages` is always there, a list of ChatMessages, whatever a user schema says. */
export function withMessages(schema: StateSchema): StateSchema {
  return { ...schema, messages: { type: "list[ChatMessage]", handler: mergeLists } };
}

export class State {
  readonly data: Record<string, unknown> = {};

  constructor(
    readonly schema: StateSchema = {},
    data: Record<string, unknown> = {},
  ) {
    // Keys outside the schema are run inputs of something else; null means "not given".
    for (const [key, value] of Object.entries(data)) if (key in schema && value !== null && value !== undefined) this.set(key, value);
  }

  has(key: string): boolean {
    return key in this.data;
  }

  get(key: string, fallback?: unknown): unknown {
    return key in this.data ? this.data[key] : fallback;
  }

  /** Merges `value` into `key`: the override handler, else the schema's, else by type. */
  set(key: string, value: unknown, handlerOverride?: MergeHandler): void {
    const field = this.schema[key];
    if (!field) throw new Error(`State: key '${key}' is not in the state schema. Known keys: ${Object.keys(this.schema).join(", ") || "none"}.`);
    const handler = handlerOverride ?? field.handler ?? (isListType(field.type) ? mergeLists : replaceValues);
    this.data[key] = handler(this.data[key], value);
  }

  /** The messages so far (always a list). */
  get messages(): ChatMessage[] {
    return (this.data.messages as ChatMessage[] | undefined) ?? [];
  }

  /** Schema types as strings and handlers dropped: what a dump or trace can hold. */
  schemaDict(): Record<string, { type: string }> {
    return Object.fromEntries(Object.entries(this.schema).map(([k, f]) => [k, { type: f.type }]));
  }
}
