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

  /** Removes an entry (its type string and aliases); other entries stay. Answers whether it was there. */
  unregister(entry: T): boolean {
    let found = false;
    for (const [name, existing] of this.byName) {
      if (existing !== entry) continue;
      this.byName.delete(name);
      found = true;
    }
    return found;
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

/** What an integration registers (see docs/document-stores.md, "Registering types from a plugin"). */
export interface EngineIntegrationTypes {
  /** Component classes; YAML names them by `type` (their Haystack import path) or an alias. */
  components?: ComponentClass[];
  /** Document-store classes: `type`, `fromDict(init_parameters)`, instances with the store protocol. */
  documentStores?: ObjectClass[];
  /** Other classes YAML nests as `{type, init_parameters}`. */
  objects?: ObjectClass[];
  /** Named functions (tool functions, callbacks) by the import path YAML writes. */
  functions?: Record<string, NamedFunction>;
}

export class EngineRegistry {
  readonly components = new TypeRegistry<ComponentClass>("component");
  readonly objects = new TypeRegistry<ObjectClass>("object");
  readonly functions = new Map<string, NamedFunction>();

  registerFunction(name: string, fn: NamedFunction): this {
    if (this.functions.has(name)) throw new Error(`The function '${name}' is already registered.`);
    this.functions.set(name, fn);
    return this;
  }

  /**
   * Registers a set of types at once, as an integration package does (components and document
   * stores by their Haystack import paths); answers a function that unregisters exactly them. All or
   * nothing: a name taken by another entry throws and leaves the registry as it was.
   */
  registerIntegration(integration: EngineIntegrationTypes): () => void {
    const objects = [...(integration.documentStores ?? []), ...(integration.objects ?? [])];
    const components = integration.components ?? [];
    const functions = Object.entries(integration.functions ?? {});
    for (const [name] of functions) if (this.functions.has(name)) throw new Error(`The function '${name}' is already registered.`);
    const done: Array<() => void> = [];
    try {
      for (const c of components) {
        this.components.register(c);
        done.push(() => this.components.unregister(c));
      }
      for (const o of objects) {
        this.objects.register(o);
        done.push(() => this.objects.unregister(o));
      }
    } catch (error) {
      for (const undo of done.reverse()) undo();
      throw error;
    }
    for (const [name, fn] of functions) {
      this.functions.set(name, fn);
      done.push(() => this.functions.get(name) === fn && this.functions.delete(name));
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      for (const undo of done.reverse()) undo();
    };
  }

  getFunction(name: string): NamedFunction {
    const fn = this.functions.get(name);
    if (!fn) throw new Error(`Unknown function '${name}'. Registered functions: ${[...this.functions.keys()].sort().join(", ") || "none"}`);
    return fn;
  }
}
