/**
 * @module State: the values an Agent carries between steps, shaped by a schema of key → {type}
 * (Haystack type strings such as `str` or `list[Document]`). Tools read from it
 * (`inputs_from_state`) and write to it (`outputs_to_state`). Writing to a list key appends, to any
 * other key replaces, unless a handler says otherwise: the same rules as Haystack's State.
 */
import * as v from "valibot";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { schemaForTypeString, splitTopLevel } from "../type-strings.js";
import { callableName } from "../callable-names.js";
import { deepCopy } from "../pipeline/copy.js";
import type { EngineRegistry } from "../registry.js";
import { deserializeValueWithSchema, serializeFieldsWithFallback, type SerializedValue } from "../value-serialization.js";

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

/** The top-level alternatives of `A | B`, or the one type. */
function unionParts(type: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of type) {
    if (ch === "[") depth++;
    if (ch === "]") depth--;
    if (ch === "|" && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

/**
 * `list`, `list[...]`, `typing.List[...]` (Haystack's `_is_list_type`): a list and nothing else, so
 * `list[int] | None` and `Optional[list[int]]` are not (they replace, as in Haystack).
 */
export function isListType(type: string): boolean {
  const parts = unionParts(type.trim());
  return parts.length === 1 && /^(typing\.)?(list|List)(\[.*\])?$/.test(parts[0]!);
}

const BUILTIN_TYPES = new Set(["str", "int", "float", "bool", "bytes", "dict", "list", "tuple", "set", "frozenset", "object", "type", "complex", "NoneType", "None", "Any", "function"]);
const TYPING_GENERICS = new Set(["List", "Dict", "Tuple", "Set", "FrozenSet", "Sequence", "Mapping", "Iterable", "Callable", "Type", "Literal", "Annotated"]);

/**
 * Whether a YAML type string names a type (Haystack's `_is_valid_type`): builtins, `typing` names,
 * dotted or capitalised class names, their generics and unions (`Union[...]`, `Optional[...]`,
 * `A | B`). A bare `Union`, a lower-case word that is no builtin, or a value (`42`, `[1, 2]`) is not.
 */
export function isValidTypeString(type: unknown): boolean {
  if (typeof type !== "string" || !type.trim()) return false;
  const parts = unionParts(type.trim());
  if (parts.length > 1) return parts.every(isValidTypeString);
  const generic = /^([\w.]+)\[(.*)\]$/.exec(parts[0]!);
  const name = generic ? generic[1]! : parts[0]!;
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$/.test(name)) return false;
  const base = name.replace(/^typing\./, "");
  if (base === "Union" || base === "Optional") {
    if (!generic) return false;
  } else if (!(BUILTIN_TYPES.has(base) || TYPING_GENERICS.has(base) || base.includes(".") || /^[A-Z]/.test(base))) return false;
  if (!generic) return true;
  const args = splitTopLevel(generic[2]!);
  return args.length > 0 && args.every((a) => a === "..." || /^\[.*\]$/.test(a) || isValidTypeString(a));
}

/** Haystack's `_validate_schema`: every key has a valid type, handlers are functions, `messages` holds ChatMessages. */
export function validateStateSchema(schema: Record<string, { type?: unknown; handler?: unknown }>): void {
  for (const [key, definition] of Object.entries(schema)) {
    if (!definition || typeof definition !== "object" || !("type" in definition)) throw new Error(`StateSchema: Key '${key}' is missing a 'type' entry.`);
    if (!isValidTypeString(definition.type)) throw new Error(`StateSchema: 'type' for key '${key}' must be a Python type, got ${String(definition.type)}`);
    if (definition.handler !== undefined && definition.handler !== null && typeof definition.handler !== "function") throw new Error(`StateSchema: 'handler' for key '${key}' must be callable or None`);
    if (key === "messages") {
      const item = /^(typing\.)?(list|List)\[(.*)\]$/.exec(String(definition.type).trim())?.[3];
      if (!isListType(String(definition.type)) || !item || !/(^|\.)ChatMessage$/.test(item.trim())) {
        throw new Error(`StateSchema: 'messages' must be of type list[ChatMessage], got ${String(definition.type)}`);
      }
    }
  }
}

/** Haystack's import paths of the two default handlers, so a dumped schema reads back in Python too. */
export const MERGE_LISTS_NAME = "haystack.components.agents.state.state_utils.merge_lists";
export const REPLACE_VALUES_NAME = "haystack.components.agents.state.state_utils.replace_values";

function handlerName(handler: MergeHandler, registry: EngineRegistry | undefined): string {
  if (handler === mergeLists) return MERGE_LISTS_NAME;
  if (handler === replaceValues) return REPLACE_VALUES_NAME;
  const known = callableName(handler);
  if (known) return known;
  if (registry) for (const [name, fn] of registry.functions) if (fn === handler) return name;
  if (handler.name) return handler.name;
  throw new Error("State: a handler has no name to serialize: register it with registry.registerFunction(name, fn).");
}

function handlerByName(name: string, registry: EngineRegistry | undefined): MergeHandler {
  if (name === MERGE_LISTS_NAME || name === "merge_lists") return mergeLists;
  if (name === REPLACE_VALUES_NAME || name === "replace_values") return replaceValues;
  if (!registry) throw new Error(`State: handler '${name}' needs a registry to be found.`);
  return registry.getFunction(name) as MergeHandler;
}

/** Haystack's `_schema_to_dict`: types as they are, handlers by name (only those given). */
export function schemaToDict(schema: StateSchema, registry?: EngineRegistry): Record<string, { type: string; handler?: string }> {
  return Object.fromEntries(Object.entries(schema).map(([k, f]) => [k, f.handler ? { type: f.type, handler: handlerName(f.handler, registry) } : { type: f.type }]));
}

/** Haystack's `_schema_from_dict`: handlers looked up by name. */
export function schemaFromDict(dict: Record<string, { type: string; handler?: string | null }>, registry?: EngineRegistry): StateSchema {
  return Object.fromEntries(Object.entries(dict).map(([k, f]) => [k, f.handler ? { type: f.type, handler: handlerByName(f.handler, registry) } : { type: f.type }]));
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
  /** The schema with `messages` added and every handler filled in (merge for lists, else replace). */
  readonly schema: StateSchema;

  constructor(schema: StateSchema = {}, data: Record<string, unknown> = {}) {
    validateStateSchema(schema);
    const full: StateSchema = { ...schema };
    full.messages ??= { type: "list[ChatMessage]", handler: mergeLists };
    this.schema = Object.fromEntries(Object.entries(full).map(([k, f]) => [k, { ...f, handler: f.handler ?? (isListType(f.type) ? mergeLists : replaceValues) }]));
    // Keys outside the schema are run inputs of something else; null means "not given".
    for (const [key, value] of Object.entries(data)) if (key in this.schema && value !== null && value !== undefined) this.data[key] = value;
  }

  has(key: string): boolean {
    return key in this.data;
  }

  /** A copy of the value, so a caller changing it does not change the state (Haystack deep-copies). */
  get(key: string, fallback?: unknown): unknown {
    return deepCopy(key in this.data ? this.data[key] : fallback);
  }

  /** Merges `value` into `key`: the override handler, else the schema's. */
  set(key: string, value: unknown, handlerOverride?: MergeHandler): void {
    const field = this.schema[key];
    if (!field) throw new Error(`State: Key '${key}' not found in schema. Schema: ${JSON.stringify(schemaToDict(this.schema))}`);
    const handler = handlerOverride ?? field.handler!;
    this.data[key] = handler(this.data[key] ?? null, value);
  }

  /** The messages so far (always a list). */
  get messages(): ChatMessage[] {
    return (this.data.messages as ChatMessage[] | undefined) ?? [];
  }

  /** Schema types as strings and handlers dropped: what a dump or trace can hold. */
  schemaDict(): Record<string, { type: string }> {
    return Object.fromEntries(Object.entries(this.schema).map(([k, f]) => [k, { type: f.type }]));
  }

  /** Haystack's `State.to_dict`: the schema with handler names, the data schema-aware; a value that cannot be serialized is left out with a warning. */
  toDict(options: { skipKeys?: string[]; registry?: EngineRegistry; warn?: (message: string) => void } = {}): { schema: Record<string, unknown>; data: SerializedValue } {
    const skip = new Set(options.skipKeys ?? []);
    const schema = Object.fromEntries(Object.entries(this.schema).filter(([k]) => !skip.has(k)));
    const data = Object.fromEntries(Object.entries(this.data).filter(([k]) => !skip.has(k)));
    return { schema: schemaToDict(schema, options.registry), data: serializeFieldsWithFallback(deepCopy(data), "the agent's State data", options.warn) };
  }

  static fromDict(dict: { schema?: Record<string, { type: string; handler?: string | null }>; data?: SerializedValue }, registry?: EngineRegistry): State {
    const data = dict.data ? (deserializeValueWithSchema(dict.data) as Record<string, unknown>) : {};
    return new State(schemaFromDict(dict.schema ?? {}, registry), data);
  }
}
