/**
 * @module The engine registry: type strings → component classes, nested object classes (document
 * stores) and named functions (tool functions). YAML can instantiate nothing outside it. One
 * registry per engine plugin instance, not a module global; plugins extend it.
 */
import type { ComponentClass } from "./component.js";

/** A class YAML can nest in init parameters as `{type, init_parameters}`. */
export interface ObjectClass<T = unknown> {
  readonly type: string;
  readonly aliases?: readonly string[];
  fromDict(initParameters: Record<string, unknown>): T;
}

export class TypeRegistry<T extends { readonly type: string; readonly aliases?: readonly string[] }> {
  private readonly byName = new Map<string, T>();

  constructor(readonly kind: string) {}

  register(...entries: T[]): this {
    for (const entry of entries) {
      for (const name of [entry.type, ...(entry.aliases ?? [])]) {
        const existing = this.byName.get(name);
        if (existing && existing !== entry) throw new Error(`The ${this.kind} type '${name}' is already registered.`);
        this.byName.set(name, entry);
      }
    }
    return this;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The entry for a type string or alias, or an error listing every registered type. */
  get(name: string): T {
    const entry = this.byName.get(name);
    if (!entry) throw new Error(`Unknown ${this.kind} type '${name}'. Registered types: ${this.canonicalTypes().join(", ") || "none"}`);
    return entry;
  }

  /** Canonical type strings, sorted. */
  canonicalTypes(): string[] {
    return [...new Set([...this.byName.values()].map((e) => e.type))].sort();
  }
}

export type NamedFunction = (...args: any[]) => unknown;

export class EngineRegistry {
  readonly components = new TypeRegistry<ComponentClass>("component");
  readonly objects = new TypeRegistry<ObjectClass>("object");
  readonly functions = new Map<string, NamedFunction>();

  registerFunction(name: string, fn: NamedFunction): this {
    if (this.functions.has(name)) throw new Error(`The function '${name}' is already registered.`);
    this.functions.set(name, fn);
    return this;
  }

  getFunction(name: string): NamedFunction {
    const fn = this.functions.get(name);
    if (!fn) throw new Error(`Unknown function '${name}'. Registered functions: ${[...this.functions.keys()].sort().join(", ") || "none"}`);
    return fn;
  }
}
