/**
 * @module Toolset (Haystack's `haystack.tools.toolset.Toolset`): a named group of tools passed
 * wherever tools are accepted (Agent, ToolInvoker, chat generators), alone or in a list with
 * other tools and toolsets. It is the base for toolsets that load their tools lazily: a subclass
 * fills `tools` in `warmUp()`, which the Agent calls before every run, so tools are read anew
 * (flattened) at each step.
 */
import type { EngineRegistry } from "./registry.js";
import { Tool } from "./tool.js";

export const TOOLSET_TYPE = "haystack.tools.toolset.Toolset";

/** What `tools` parameters accept, as Haystack's `ToolsType`. */
export type ToolsType = Toolset | (Tool | Toolset)[];

export class Toolset implements Iterable<Tool> {
  tools: Tool[];

  constructor(tools: Tool[] = []) {
    if (tools instanceof Tool) throw new TypeError("A single Tool cannot be directly passed to Toolset. Please use a list: Toolset([tool])");
    if (!Array.isArray(tools)) throw new TypeError(`Toolset expects a list of Tools, got ${typeof tools}.`);
    checkDuplicateToolNames(tools);
    this.tools = [...tools];
  }

  [Symbol.iterator](): Iterator<Tool> {
    return this.tools[Symbol.iterator]();
  }

  get length(): number {
    return this.tools.length;
  }

  /** Haystack's `toolset[i]`. */
  at(index: number): Tool | undefined {
    return this.tools.at(index);
  }

  /** Haystack's `in`: by tool name or by the Tool itself. */
  has(item: string | Tool): boolean {
    if (typeof item === "string") return this.tools.some((t) => t.name === item);
    if (item instanceof Tool) return this.tools.includes(item);
    return false;
  }

  /** Tools a run may pick by name; warms first, so lazily loaded tools are selectable. */
  async getSelectableTools(): Promise<Tool[]> {
    await this.warmUp();
    return [...this.tools];
  }

  /** This toolset for one run; subclasses with run-scoped state return a copy. */
  spawn(_selectedToolNames?: Set<string>): Toolset {
    return this;
  }

  /** Called before every run: must be idempotent. By default warms each tool. */
  async warmUp(): Promise<void> {
    for (const t of this.tools) await t.warmUp();
  }

  /** Adds a Tool, or the tools of another Toolset (Haystack deprecates the latter: pass a list instead). */
  add(item: Tool | Toolset): void {
    if (!(item instanceof Tool) && !(item instanceof Toolset)) throw new TypeError(`Expected Tool or Toolset, got ${describe(item)}`);
    const added = item instanceof Tool ? [item] : [...item];
    checkDuplicateToolNames([...this.tools, ...added]);
    this.tools.push(...added);
  }

  /** Haystack's `toolset + other`: a new Toolset with both's tools. */
  plus(other: Tool | Toolset | Tool[]): Toolset {
    if (other instanceof Tool) return new Toolset([...this.tools, other]);
    if (other instanceof Toolset) return new Toolset([...this.tools, ...other]);
    if (Array.isArray(other) && other.every((t) => t instanceof Tool)) return new Toolset([...this.tools, ...other]);
    throw new TypeError(`Cannot add ${describe(other)} to Toolset`);
  }

  toDict(registry?: EngineRegistry): { type: string; data: Record<string, unknown> } {
    return { type: TOOLSET_TYPE, data: { tools: this.tools.map((t) => t.toDict(registry)) } };
  }
}

/** Two tools with one name: the LLM could not tell them apart. */
export function checkDuplicateToolNames(tools: readonly Tool[]): void {
  const names = tools.map((t) => t.name);
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicates.length) throw new Error(`Duplicate tool names found: ${duplicates.join(", ")}`);
}

/** The tools of a Toolset or of a list of Tools and Toolsets, in order (Haystack's `flatten_tools_or_toolsets`). */
export function flattenTools(tools: ToolsType | null | undefined): Tool[] {
  if (!tools) return [];
  if (tools instanceof Toolset) return [...tools];
  return tools.flatMap((t) => (t instanceof Toolset ? [...t] : [t]));
}

/** Warms every tool and toolset (Haystack's `warm_up_tools`): each toolset warms its own tools. */
export async function warmUpTools(tools: ToolsType | null | undefined): Promise<void> {
  if (!tools) return;
  for (const item of tools instanceof Toolset ? [tools] : tools) await item.warmUp();
}

/** A per-run copy: each Toolset replaced by its `spawn()`. */
export function spawnTools(tools: ToolsType): ToolsType {
  return tools instanceof Toolset ? tools.spawn() : tools.map((t) => (t instanceof Toolset ? t.spawn() : t));
}

export function isToolsType(x: unknown): x is ToolsType {
  return x instanceof Toolset || (Array.isArray(x) && x.every((t) => t instanceof Tool || t instanceof Toolset));
}

function describe(x: unknown): string {
  if (x === null) return "NoneType";
  if (Array.isArray(x)) return "list";
  if (typeof x === "object") return (x as object).constructor?.name ?? "object";
  return typeof x === "string" ? "str" : typeof x;
}
