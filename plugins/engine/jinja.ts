/**
 * @module Sandboxed Jinja2-compatible templates on @huggingface/jinja's tokenize/parse/Interpreter.
 * Templates arrive in user YAML over HTTP, so nothing here may reach JS internals: variables are
 * copied into the interpreter's own value types (functions dropped, class instances flattened to
 * their data), and every attribute lookup goes through Maps. Jinja2 behaviour the library lacks
 * (Python rendering of values, iterating strings and undefined, more filters, tojson's defaults,
 * `range` limits) is added by overriding a few interpreter methods, checked at load time.
 */
import { isDeepStrictEqual } from "node:util";
import { Environment, Interpreter, parse, tokenize } from "@huggingface/jinja";
import { Secret } from "./dataclasses/secret.js";
import { haystackNow, NOW_FUNCTION, rewriteNowTags } from "./jinja-now.js";

export class TemplateError extends Error {
  override name = "TemplateError";
}

/** A filter given by the caller: receives plain JS values (the originals for objects from variables). */
export type CustomFilter = (value: unknown, ...args: unknown[]) => unknown;
export interface RenderOptions {
  filters?: Readonly<Record<string, CustomFilter>>;
  /** Jinja2's StrictUndefined (OutputAdapter's environment): printing an undefined value raises. */
  strictUndefined?: boolean;
}

// The package's .d.ts files do not resolve under NodeNext (extensionless imports), so its API is
// typed here, as far as this module uses it.
type Node = { type: string; [key: string]: any };
type Program = { body: Node[] };
interface RV {
  type: string;
  value: any;
  __bool__(): { value: boolean };
}
type RVClass = new (value?: any) => RV;
interface Env {
  variables: Map<string, RV>;
  set(name: string, value: unknown): RV;
}
interface JinjaInterpreter {
  global: Env;
  run(program: Program): RV;
  evaluate(node: Node | undefined, env: Env): RV;
}
const Base = Interpreter as new (env: Env) => JinjaInterpreter;
const newEnv = () => new Environment() as Env;
const parseTemplate = (source: string): Program => parse(tokenize(source, { lstrip_blocks: false, trim_blocks: false }));

// The value classes are not exported; take them from values the library itself creates.
const probe = newEnv();
const mk = (v: unknown) => probe.set(`_${probe.variables.size}`, v).constructor as unknown as RVClass;
const rt = {
  Str: mk(""), Int: mk(1), Float: mk(1.5), Bool: mk(true), Null: mk(null), Undef: mk(undefined), Arr: mk([]), Obj: mk({}),
  Fn: probe.variables.get("namespace")!.constructor as unknown as RVClass,
};
const BASE = Interpreter.prototype as any;
for (const m of ["applyFilter", "evaluateBlock", "evaluateFor", "evaluateArguments"]) {
  if (typeof BASE[m] !== "function") throw new Error(`@huggingface/jinja changed: Interpreter.${m} is missing; jinja.ts needs updating.`);
}

const MAX_RANGE = 100_000; // Jinja2's sandbox limit
const MAX_STEPS = 1_000_000; // bounds a template's CPU use to a few seconds (nested loops)
const ITERATION_STEPS = 10; // a loop iteration costs the library about ten evaluations
const MAX_OUTPUT = 20_000_000; // bounds memory (characters per block)
const VALUE = "__precomputed"; // a synthetic AST node holding an evaluated value
const SILENT = new Set(["Set", "Macro", "Comment"]); // statements whose null result prints nothing
const GLOBALS = new Set(["true", "false", "none", "True", "False", "None", "range", "dict", "namespace", "loop", NOW_FUNCTION]);
const LIST_FILTERS = new Set(["join", "first", "last", "length", "count", "list", "sort", "unique", "reverse", "map", "selectattr", "rejectattr", "items"]);

/** Values made from class instances: printed as `Name(field=…)`, like Python objects, not as dicts. */
const instances = new WeakMap<RV, { name: string; fields: number }>();

/** JS → interpreter value. Records each object's original so filters and `renderNative` get it back. */
function toRuntime(js: unknown, origins: Map<RV, unknown>, memo = new Map<object, RV>()): RV {
  if (js === undefined || typeof js === "function" || typeof js === "symbol") return new rt.Undef();
  if (js === null) return new rt.Null();
  if (typeof js === "string") return new rt.Str(js);
  if (typeof js === "boolean") return new rt.Bool(js);
  if (typeof js === "number" || typeof js === "bigint") return Number.isInteger(Number(js)) ? new rt.Int(Number(js)) : new rt.Float(Number(js));
  const obj = js as object;
  const seen = memo.get(obj);
  if (seen) return seen;
  let out: RV;
  if (Array.isArray(obj) || obj instanceof Set) out = new rt.Arr([]);
  else if (obj instanceof Date) out = new rt.Str(obj.toISOString());
  else if (ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) out = new rt.Str(`<${obj.byteLength} bytes>`);
  else if (obj instanceof Secret) out = new rt.Str("<Secret>"); // never expose a token
  else out = new rt.Obj(new Map());
  memo.set(obj, out);
  origins.set(out, obj);
  const conv = (v: unknown) => toRuntime(v, origins, memo);
  if (out.type === "ArrayValue") for (const v of obj as Iterable<unknown>) out.value.push(conv(v));
  if (out.type !== "ObjectValue") return out;
  if (obj instanceof Map) {
    for (const [k, v] of obj) out.value.set(String(k), conv(v));
    return out;
  }
  const plain = [Object.prototype, null].includes(Object.getPrototypeOf(obj));
  for (const [k, v] of Object.entries(obj)) if (plain || (!k.startsWith("_") && typeof v !== "function")) out.value.set(k, conv(v));
  if (plain) return out;
  instances.set(out, { name: (obj.constructor as { name?: string } | undefined)?.name || "object", fields: out.value.size });
  // Class instances: also their getters (ChatMessage.text), with snake_case aliases (toolCalls → tool_calls),
  // and never underscore names, as in Jinja2's sandbox.
  for (let p = Object.getPrototypeOf(obj); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(p))) {
      if (!d.get || k.startsWith("_") || out.value.has(k)) continue;
      try {
        const v = conv(d.get.call(obj));
        out.value.set(k, v);
        const snake = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        if (!out.value.has(snake)) out.value.set(snake, v);
      } catch {
        // a throwing getter is simply not visible
      }
    }
  }
  return out;
}

/** Interpreter value → JS (originals where known). Functions become undefined. */
function toJs(v: RV, origins?: Map<RV, unknown>): unknown {
  if (origins?.has(v)) return origins.get(v);
  if (v.type === "ArrayValue" || v.type === "TupleValue") return (v.value as RV[]).map((x) => toJs(x, origins));
  if (v.type === "ObjectValue" || v.type === "KeywordArgumentsValue" || v.type === "NamespaceValue") {
    return Object.fromEntries([...(v.value as Map<string, RV>)].map(([k, x]) => [k, toJs(x, origins)]));
  }
  return v.type === "FunctionValue" || v.type === "UndefinedValue" ? undefined : v.value;
}

const pyQuote = (s: string) => {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const e = s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return q + (q === "'" ? e.replace(/'/g, "\\'") : e) + q;
};
const pyFloat = (n: number) =>
  Number.isNaN(n) ? "nan" : !Number.isFinite(n) ? (n > 0 ? "inf" : "-inf") : Number.isInteger(n) && Math.abs(n) < 1e16 ? n.toFixed(1) : String(n).replace(/e([+-])(\d)$/, "e$10$2");

/** Python's repr() of a value, as Jinja2 prints values inside lists and dicts. */
function pyRepr(v: RV): string {
  switch (v.type) {
    case "StringValue": return pyQuote(v.value);
    case "FloatValue": return pyFloat(v.value);
    case "BooleanValue": return v.value ? "True" : "False";
    case "NullValue": return "None";
    case "UndefinedValue": return "";
    case "FunctionValue": return "<function>";
    case "ArrayValue": return `[${(v.value as RV[]).map(pyRepr).join(", ")}]`;
    case "TupleValue": return v.value.length === 1 ? `(${pyRepr(v.value[0])},)` : `(${(v.value as RV[]).map(pyRepr).join(", ")})`;
    case "ObjectValue": case "KeywordArgumentsValue": case "NamespaceValue": {
      const entries = [...(v.value as Map<string, RV>)], instance = instances.get(v);
      if (instance) return `${instance.name}(${entries.slice(0, instance.fields).map(([k, x]) => `${k}=${pyRepr(x)}`).join(", ")})`;
      return `{${entries.map(([k, x]) => `${pyQuote(k)}: ${pyRepr(x)}`).join(", ")}}`;
    }
    default: return String(v.value);
  }
}
/** Python's str(): what `{{ value }}` prints. */
const pyStr = (v: RV) => (v.type === "StringValue" ? (v.value as string) : pyRepr(v));
/** Python's repr() of a JS value, for error messages in Haystack's wording. */
export const pythonRepr = (value: unknown): string => pyRepr(toRuntime(value, new Map()));

/** Python's json.dumps as Jinja2's tojson calls it: sorted keys, ASCII only, HTML-safe. */
function dumps(v: RV, indent: number | null, depth = 0): string {
  const pad = indent === null ? "" : "\n" + " ".repeat(indent * (depth + 1));
  const end = indent === null ? "" : "\n" + " ".repeat(indent * depth);
  const sep = indent === null ? ", " : ",";
  const str = (s: string) => JSON.stringify(s).replace(/[\u007f-\uffff<>&']/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  switch (v.type) {
    case "StringValue": return str(v.value);
    case "IntegerValue": return String(v.value);
    case "FloatValue": return Number.isFinite(v.value) ? pyFloat(v.value) : Number.isNaN(v.value) ? "NaN" : v.value > 0 ? "Infinity" : "-Infinity";
    case "BooleanValue": return v.value ? "true" : "false";
    case "NullValue": return "null";
    case "ArrayValue": case "TupleValue":
      return v.value.length ? `[${pad}${(v.value as RV[]).map((x) => dumps(x, indent, depth + 1)).join(sep + pad)}${end}]` : "[]";
    case "ObjectValue": case "KeywordArgumentsValue": case "NamespaceValue": {
      const entries = [...(v.value as Map<string, RV>)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return entries.length ? `{${pad}${entries.map(([k, x]) => `${str(k)}: ${dumps(x, indent, depth + 1)}`).join(sep + pad)}${end}}` : "{}";
    }
    default: throw new TemplateError(`Object of type ${v.type} is not JSON serializable`);
  }
}

type Filter = (this: Sandbox, value: RV, args: RV[], kwargs: Map<string, RV>, env: Env) => RV;
const arg = (args: RV[], kwargs: Map<string, RV>, i: number, name: string, fallback: unknown): any => (args[i] ?? kwargs.get(name))?.value ?? fallback;
const items = (v: RV): RV[] => (v.type === "StringValue" ? Array.from(v.value as string, (c) => new rt.Str(c)) : v.type === "ObjectValue" ? [...v.value.keys()].map((k) => new rt.Str(k)) : v.type === "UndefinedValue" ? [] : Array.isArray(v.value) ? v.value : []);
const strFilter = (f: (s: string) => string): Filter => (v) => new rt.Str(f(pyStr(v)));
const defaultFilter: Filter = (v, args, kwargs) => (v.type === "UndefinedValue" || (arg(args, kwargs, 1, "boolean", false) && !v.__bool__().value) ? (args[0] ?? kwargs.get("default_value") ?? new rt.Str("")) : v);
const lengthFilter: Filter = (v) => new rt.Int(v.type === "ObjectValue" ? v.value.size : items(v).length);

/** Filters Jinja2 has that the library lacks, or implements differently from Jinja2. */
const FILTERS: Record<string, Filter> = {
  default: defaultFilter, d: defaultFilter,
  length: lengthFilter, count: lengthFilter,
  string: strFilter((s) => s), upper: strFilter((s) => s.toUpperCase()), lower: strFilter((s) => s.toLowerCase()),
  capitalize: strFilter((s) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()),
  wordcount: (v) => new rt.Int((pyStr(v).match(/\w+/gu) ?? []).length),
  first: (v) => items(v)[0] ?? new rt.Undef(),
  last: (v) => items(v).at(-1) ?? new rt.Undef(),
  list: (v) => new rt.Arr(items(v)),
  truncate(v, args, kwargs) {
    const s = pyStr(v), length = arg(args, kwargs, 0, "length", 255), end: string = arg(args, kwargs, 2, "end", "...");
    if (s.length <= length + arg(args, kwargs, 3, "leeway", 5)) return new rt.Str(s);
    const cut = s.slice(0, Math.max(0, length - end.length));
    return new rt.Str((arg(args, kwargs, 1, "killwords", false) ? cut : cut.replace(/ [^ ]*$/, "")) + end);
  },
  round(v, args, kwargs) {
    const x = Number(v.value), digits = Math.min(100, Math.max(0, arg(args, kwargs, 0, "precision", 0))), method = arg(args, kwargs, 1, "method", "common");
    if (method !== "common") return new rt.Float((method === "ceil" ? Math.ceil : Math.floor)(x * 10 ** digits) / 10 ** digits);
    // Python's round(): toFixed rounds the exact binary value as Python does; exact halves go to even.
    return new rt.Float(digits === 0 && Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Number(x.toFixed(digits)));
  },
  join(v, args, kwargs) {
    const attr = arg(args, kwargs, 1, "attribute", null);
    const parts = items(v).map((x) => (attr === null ? x : ((x.value instanceof Map && x.value.get(String(attr))) || new rt.Undef())));
    return new rt.Str(parts.map(pyStr).join(arg(args, kwargs, 0, "d", "")));
  },
  tojson: (v, args, kwargs) => new rt.Str(dumps(v, arg(args, kwargs, 0, "indent", null))),
  map(v, args, kwargs, env) {
    if (kwargs.has("attribute") || !args[0]) return BASE.applyFilter.call(this, new rt.Arr(items(v)), { type: "CallExpression", callee: { type: "Identifier", value: "map" }, args: [...kwargs].map(([k, x]) => ({ type: "KeywordArgumentExpression", key: { value: k }, value: { type: VALUE, value: x } })) }, env);
    const node = { type: "CallExpression", callee: { type: "Identifier", value: String(args[0].value) }, args: args.slice(1).map((x) => ({ type: VALUE, value: x })) };
    return new rt.Arr(items(v).map((x) => overrides.applyFilter.call(this, x, node, env)));
  },
};

/** Jinja2's wording: `'name' is undefined` / `'object' has no attribute 'field'`. */
function undefinedName(node: Node | undefined): string {
  if (node?.type === "Identifier") return `'${node.value}'`;
  if (node?.type === "MemberExpression" && !node.computed && node.property?.type === "Identifier") return `attribute '${node.property.value}'`;
  return "the value";
}

class Sandbox extends Base {
  steps = 0;
  constructor(env: Env, readonly origins: Map<RV, unknown>, readonly filters: Readonly<Record<string, CustomFilter>>, readonly strict = false) {
    super(env);
  }

  /** Under StrictUndefined an undefined value may be tested, never printed or joined. */
  checkDefined(v: RV, node: Node | undefined): void {
    if (this.strict && v.type === "UndefinedValue") throw new TemplateError(`${undefinedName(node)} is undefined`);
  }

  override evaluate(node: Node | undefined, env: Env): any {
    if (++this.steps > MAX_STEPS) throw new TemplateError(`the template ran more than ${MAX_STEPS} steps`);
    const n = node as Node | undefined;
    if (n?.type === VALUE) return n.value;
    const op = n?.type === "BinaryExpression" ? n.operator.value : undefined;
    if (op === "~" || op === "==" || op === "!=") {
      const l: RV = this.evaluate(n!.left, env), r: RV = this.evaluate(n!.right, env);
      if (op === "~") {
        this.checkDefined(l, n!.left);
        this.checkDefined(r, n!.right);
        return new rt.Str(pyStr(l) + pyStr(r));
      }
      return new rt.Bool(isDeepStrictEqual(toJs(l), toJs(r)) === (op === "=="));
    }
    return super.evaluate(node, env);
  }
}

// Overrides of the library's private methods, installed on Sandbox's prototype (TypeScript forbids redeclaring them).
const overrides = {
  applyFilter(this: Sandbox, value: RV, node: Node, env: Env): RV {
    const name: string = node.type === "CallExpression" ? node.callee.value : node.value;
    const custom = Object.hasOwn(this.filters, name) ? this.filters[name] : undefined;
    const own = Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined;
    if (!custom && !own) {
      if (value.type === "UndefinedValue") value = LIST_FILTERS.has(name) ? new rt.Arr([]) : new rt.Str("");
      return BASE.applyFilter.call(this, value, node, env);
    }
    const [args, kwargs]: [RV[], Map<string, RV>] = node.type === "CallExpression" ? BASE.evaluateArguments.call(this, node.args, env) : [[], new Map()];
    if (own) return own.call(this, value, args, kwargs, env);
    const jsArgs = args.map((a) => toJs(a, this.origins));
    if (kwargs.size) jsArgs.push(Object.fromEntries([...kwargs].map(([k, x]) => [k, toJs(x, this.origins)])));
    return toRuntime(custom!(toJs(value, this.origins), ...jsArgs), this.origins);
  },

  evaluateBlock(this: Sandbox, statements: Node[], env: Env): RV {
    let out = "";
    for (const statement of statements) {
      const v: RV = this.evaluate(statement, env);
      this.checkDefined(v, statement);
      if (v.type !== "NullValue" || !SILENT.has(statement.type)) out += pyStr(v);
      if (out.length > MAX_OUTPUT) throw new TemplateError(`the template produced more than ${MAX_OUTPUT} characters`);
    }
    return new rt.Str(out);
  },

  /** Jinja2 iterates strings (by character) and undefined (as empty); the library refuses both. */
  evaluateFor(this: Sandbox, node: Node, env: Env): RV {
    const select = node.iterable.type === "SelectExpression";
    let it: RV = this.evaluate(select ? node.iterable.lhs : node.iterable, env);
    if (it.type === "StringValue" || it.type === "UndefinedValue") it = new rt.Arr(items(it));
    if (it.type === "NullValue") throw new TemplateError("'None' is not iterable");
    // Iterations cost even with an empty body, so count them against the step budget up front.
    this.steps += ITERATION_STEPS * (it.value instanceof Map ? it.value.size : Array.isArray(it.value) ? it.value.length : 0);
    if (this.steps > MAX_STEPS) throw new TemplateError(`the template ran more than ${MAX_STEPS} steps`);
    const pre = { type: VALUE, value: it };
    return BASE.evaluateFor.call(this, { ...node, iterable: select ? { ...node.iterable, lhs: pre } : pre }, env);
  },
};
Object.assign(Sandbox.prototype, overrides);

function globals(env: Env): void {
  const vars = env.variables;
  for (const [k, v] of [["true", true], ["false", false], ["True", true], ["False", false]] as const) vars.set(k, new rt.Bool(v));
  vars.set("none", new rt.Null());
  vars.set("None", new rt.Null());
  vars.set("range", new rt.Fn((args: RV[]) => {
    const [a, b, step = 1] = args.map((x) => Number(x.value));
    const [start, stop] = b === undefined ? [0, a!] : [a!, b];
    if (!step) throw new TemplateError("range() arg 3 must not be zero");
    const n = Math.max(0, Math.ceil((stop - start) / step));
    if (n > MAX_RANGE) throw new TemplateError(`Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`);
    return new rt.Arr(Array.from({ length: n }, (_, i) => new rt.Int(start + i * step)));
  }));
  vars.set(NOW_FUNCTION, new rt.Fn((args: RV[]) => new rt.Str(haystackNow(...(args.map((a) => toJs(a)) as [unknown, unknown, unknown, unknown])))));
  vars.set("dict", new rt.Fn((args: RV[]) => new rt.Obj(new Map(args.flatMap((a) => (a.type === "KeywordArgumentsValue" ? [...a.value] : []))))));
}

/** Undeclared variables in reading order (jinja2.meta.find_undeclared_variables) and the filters used. */
function analyse(program: Program): { variables: string[]; filters: Set<string> } {
  const found = new Set<string>(), filters = new Set<string>();
  const names = (target: Node): string[] => (target.type === "Identifier" ? [target.value] : target.type === "TupleLiteral" ? target.value.flatMap(names) : []);
  const params = (list: Node[]) => list.map((p) => (p.type === "Identifier" ? p.value : p.key.value));
  const walk = (node: any, scope: Set<string>): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, scope));
    if (node instanceof Map) return node.forEach((v, k) => (walk(k, scope), walk(v, scope)));
    if (!node || typeof node !== "object" || typeof node.type !== "string") return;
    const inner = (...extra: string[]) => new Set([...scope, ...extra]);
    const filter = (f: Node) => {
      filters.add(f.type === "CallExpression" ? f.callee.value : f.value);
      if (f.type === "CallExpression") walk(f.args, scope);
    };
    switch (node.type) {
      case "Identifier": if (!scope.has(node.value) && !GLOBALS.has(node.value)) found.add(node.value); return;
      case "For": {
        const select = node.iterable.type === "SelectExpression";
        walk(select ? node.iterable.lhs : node.iterable, scope);
        const body = inner("loop", ...names(node.loopvar));
        if (select) walk(node.iterable.test, body);
        walk(node.body, body);
        return walk(node.defaultBlock, scope);
      }
      case "Set":
        walk(node.value, scope);
        walk(node.body, scope);
        if (node.assignee.type === "MemberExpression") return walk(node.assignee.object, scope);
        return void names(node.assignee).forEach((n) => scope.add(n));
      case "Macro": {
        scope.add(node.name.value);
        const body = inner(...params(node.args), "varargs", "kwargs", "caller");
        return walk([node.args, node.body], body);
      }
      case "CallStatement": walk(node.call, scope); return walk([node.callerArgs ?? [], node.body], inner(...params(node.callerArgs ?? []), "varargs", "kwargs"));
      case "MemberExpression": walk(node.object, scope); return node.computed ? walk(node.property, scope) : undefined;
      case "FilterExpression": walk(node.operand, scope); return filter(node.filter);
      case "FilterStatement": walk(node.body, scope); return filter(node.filter);
      case "TestExpression": return walk(node.operand, scope);
      case "KeywordArgumentExpression": return walk(node.value, scope);
      default: for (const [k, v] of Object.entries(node)) if (k !== "operator") walk(v, scope);
    }
  };
  walk(program.body, new Set());
  return { variables: [...found], filters };
}

const KNOWN_FILTERS = new Set([...Object.keys(FILTERS), "safe", "abs", "int", "float", "bool", "trim", "title", "indent", "replace", "sort", "unique", "reverse", "items", "dictsort", "selectattr", "rejectattr", "keys", "values", "get"]);

export class CompiledTemplate {
  readonly variables: readonly string[];
  readonly filters: ReadonlySet<string>;

  constructor(readonly source: string, readonly program: Program) {
    ({ variables: this.variables, filters: this.filters } = analyse(program));
  }

  render(variables: Record<string, unknown> = {}, options: RenderOptions = {}): string {
    return this.run(variables, options, (s) => s.run(this.program).value);
  }

  /** Jinja2's NativeEnvironment: a template that is one `{{ expression }}` returns its value as is. */
  renderNative(variables: Record<string, unknown> = {}, options: RenderOptions = {}): unknown {
    const body = this.program.body as Node[];
    if (body.length !== 1 || SILENT.has(body[0]!.type) || ["If", "For", "CallStatement", "FilterStatement"].includes(body[0]!.type)) return this.render(variables, options);
    return this.run(variables, options, (s) => {
      const value: RV = s.evaluate(body[0], s.global);
      s.checkDefined(value, body[0]);
      return toJs(value, s.origins);
    });
  }

  private run<T>(variables: Record<string, unknown>, options: RenderOptions, fn: (s: Sandbox) => T): T {
    const env = newEnv(), origins = new Map<RV, unknown>(), memo = new Map<object, RV>();
    globals(env);
    for (const [k, v] of Object.entries(variables)) env.variables.set(k, toRuntime(v, origins, memo));
    try {
      return fn(new Sandbox(env, origins, options.filters ?? {}, options.strictUndefined));
    } catch (e) {
      throw new TemplateError(`Template rendering failed: ${(e as Error).message} (template: ${excerpt(this.source)})`);
    }
  }
}

const excerpt = (s: string) => JSON.stringify(s.length > 80 ? s.slice(0, 77) + "..." : s);
const cache = new Map<string, CompiledTemplate>();
const CACHE_SIZE = 500;

/** Haystack's Jinja2 extensions a template may use; off by default, as in a plain Jinja2 environment. */
export interface TemplateExtensions {
  /** The `{% now %}` tag (Jinja2TimeExtension), which PromptBuilder and ChatPromptBuilder enable. */
  now?: boolean;
}

/** The parsed template for a source, parsed once (a bounded LRU cache). */
function parsed(source: string, extensions: TemplateExtensions = {}): CompiledTemplate {
  const key = extensions.now ? `now\u0000${source}` : source;
  let compiled = cache.get(key);
  if (compiled) {
    cache.delete(key); // refresh its place in the LRU order
  } else {
    try {
      // Jinja2 normalizes newlines; the library drops one trailing newline, as Jinja2 does.
      const text = source.replace(/\r\n?/g, "\n");
      compiled = new CompiledTemplate(source, parseTemplate(extensions.now ? rewriteNowTags(text) : text));
    } catch (e) {
      const msg = e instanceof TypeError ? "unexpected end of template (is a {% block %} not closed?)" : (e as Error).message;
      throw new TemplateError(`Template syntax error: ${msg} (template: ${excerpt(source)})`);
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, compiled);
  return compiled;
}

/** Parses (cached) and checks filter names up front, as Jinja2 does; `extraFilters` are custom filters the caller will pass. */
export function compileTemplate(source: string, extraFilters: Iterable<string> = [], extensions: TemplateExtensions = {}): CompiledTemplate {
  const compiled = parsed(source, extensions);
  const extra = new Set(extraFilters);
  for (const f of compiled.filters) {
    if (!KNOWN_FILTERS.has(f) && !extra.has(f)) throw new TemplateError(`Template syntax error: no filter named '${f}' (template: ${excerpt(source)})`);
  }
  return compiled;
}

export const renderTemplate = (source: string, variables: Record<string, unknown> = {}, options: RenderOptions = {}): string =>
  compileTemplate(source, Object.keys(options.filters ?? {})).render(variables, options);

/** The variables a template reads from its caller, in first-use order (jinja2.meta's equivalent). */
export const templateVariables = (source: string): string[] => [...parsed(source).variables];
