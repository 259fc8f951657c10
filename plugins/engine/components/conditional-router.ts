/**
 * @module ConditionalRouter (Haystack's routers.conditional_router.ConditionalRouter): routes are
 * Jinja2 conditions tried in order; the first that renders truthy fires and only its outputs are
 * returned. Rendered strings are read back as Python literals (ast.literal_eval), or, with
 * `unsafe`, a one-expression template returns its value as is (Jinja2's NativeEnvironment).
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { ByteStream, Document } from "../dataclasses/document.js";
import { callableName } from "../callable-names.js";
import { refuseUnsafeInit } from "../safe-loading.js";
import { compileTemplate, pythonRepr, type CompiledTemplate, type CustomFilter } from "../jinja.js";

export class NoRouteSelectedException extends Error {
  override name = "NoRouteSelectedException";
}
export class RouteConditionException extends Error {
  override name = "RouteConditionException";
}

type Schema = v.GenericSchema | undefined; // undefined: Any
const CLASSES: Record<string, new (...args: any[]) => unknown> = { ChatMessage, Document, ByteStream };

/** A Python type string ("str", "typing.List[str]", "Optional[dict]", "list[ChatMessage]", "int | None") → schema. */
export function typeSchema(type: string): Schema {
  const tokens = type.match(/[\w.]+|[[\],|]/g) ?? [];
  let i = 0;
  const union = (): Schema => {
    const members = [single()];
    while (tokens[i] === "|") {
      i++;
      members.push(single());
    }
    return members.length === 1 ? members[0] : build("Union", members);
  };
  const single = (): Schema => {
    // A bare parameter list, as in Callable[[int, str], bool]: read past it; the value is Any.
    const name = tokens[i] === "[" ? "" : (tokens[i++]?.split(".").pop() ?? "");
    const args: Schema[] = [];
    if (tokens[i] === "[") {
      for (i++; tokens[i] !== "]"; tokens[i] === "," && i++) {
        if (i >= tokens.length) throw new Error(`Invalid output_type '${type}'`);
        args.push(union());
      }
      i++;
    }
    return build(name, args);
  };
  const schema = union();
  if (i !== tokens.length) throw new Error(`Invalid output_type '${type}'`);
  return schema;
}

function build(name: string, args: Schema[]): Schema {
  const [a, b] = args;
  switch (name) {
    case "str": return v.string();
    case "int": return v.pipe(v.number(), v.integer());
    case "float": return v.number();
    case "bool": return v.boolean();
    case "None": case "NoneType": return v.null();
    case "list": case "List": case "Sequence": case "Iterable": case "set": case "Set": case "frozenset": case "tuple": case "Tuple":
      return v.array(args.length === 1 && a ? a : v.unknown());
    case "dict": case "Dict": case "Mapping": case "MutableMapping": return v.record(v.string(), b ?? v.unknown());
    case "Optional": return a && v.nullable(a);
    case "Union": return args.every(Boolean) ? v.union(args as v.GenericSchema[]) : undefined;
    default: return CLASSES[name] ? v.instance(CLASSES[name]) : undefined; // Any, object and unknown classes
  }
}

/** Python's ast.literal_eval over the literal forms templates produce; throws on anything else. */
export function literalEval(text: string): unknown {
  const s = text.trim();
  let i = 0;
  const fail = (): never => {
    throw new Error(`malformed node or string: ${pythonRepr(text)}`);
  };
  const ws = () => void (i += /^\s*/.exec(s.slice(i))![0].length);
  const match = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(s);
    if (m) i = re.lastIndex;
    return m;
  };
  const string = (): string => {
    let out = "";
    // Adjacent literals concatenate ('a' "b"), as in Python.
    while (s[i] === "'" || s[i] === '"') {
      const m = match(s[i] === "'" ? /'((?:[^'\\\n]|\\[\s\S])*)'/y : /"((?:[^"\\\n]|\\[\s\S])*)"/y) ?? fail();
      out += m[1]!.replace(/\\(x[\da-fA-F]{2}|u[\da-fA-F]{4}|U[\da-fA-F]{8}|[\s\S])/g, (all, e: string) =>
        e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : ({ n: "\n", t: "\t", r: "\r", "0": "\0", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "\n": "" } as Record<string, string>)[e] ?? all,
      );
      ws();
    }
    return out;
  };
  const items = (close: string, item: () => unknown): unknown[] => {
    const out: unknown[] = [];
    for (i++, ws(); s[i] !== close; ws()) {
      out.push(item());
      ws();
      if (s[i] === ",") i++;
      else if (s[i] !== close) fail();
    }
    i++;
    return out;
  };
  const value = (): unknown => {
    ws();
    const c = s[i];
    if (c === "'" || c === '"') return string();
    if (c === "[") return items("]", value);
    if (c === "(") {
      const start = i, list = items(")", value);
      return list.length === 1 && !/,\s*\)$/.test(s.slice(start, i)) ? list[0] : list; // (x) is x; (x,) a tuple
    }
    if (c === "{") {
      let dict = true;
      const list = items("}", () => {
        const key = value();
        ws();
        if (s[i] !== ":") return (dict = false), key;
        i++;
        return [String(key), value()];
      });
      return dict ? Object.fromEntries(list as [string, unknown][]) : list; // a set becomes a list
    }
    const word = match(/(True|False|None)\b/y);
    if (word) return word[1] === "True" ? true : word[1] === "False" ? false : null;
    const num = match(/[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?(?![\w.])/y) ?? fail();
    return Number(num[0].replace(/_/g, ""));
  };
  const result = value();
  ws();
  return i === s.length && s.length > 0 ? result : fail();
}

/** Python truthiness. */
const truthy = (x: unknown): boolean =>
  Array.isArray(x) ? x.length > 0 : x !== null && typeof x === "object" ? Object.getPrototypeOf(x) !== Object.prototype || Object.keys(x).length > 0 : !!x;

const list = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
const pyTypeName = (x: unknown) => (typeof x === "number" ? (Number.isInteger(x) ? "int" : "float") : typeof x === "boolean" ? "bool" : x === null ? "NoneType" : Array.isArray(x) ? "list" : typeof x === "object" ? "dict" : typeof x);
const RouteSchema = v.object({
  condition: v.unknown(),
  output: v.union([v.unknown(), v.array(v.unknown())]),
  output_name: v.union([v.string(), v.array(v.string())]),
  output_type: v.union([v.string(), v.array(v.string())]),
  /** 3.x: `output` names an input whose value is emitted as is (no Jinja, no literal reading). */
  output_passthrough: v.optional(v.boolean()),
});

/** Haystack's ValueError from `run`: a type mismatch or a missing passthrough input, not a route-condition error. */
export class RouteValueError extends Error {
  override name = "ValueError";
}
type Route = v.InferOutput<typeof RouteSchema>;
interface CompiledRoute {
  route: Route;
  condition: CompiledTemplate;
  /** `template` for a Jinja output; `variable` for a passthrough one. */
  outputs: { template?: CompiledTemplate; variable?: string; name: string; schema: Schema }[];
}

const Init = v.strictObject({
  routes: v.pipe(v.array(v.unknown()), v.minLength(1, "routes must not be empty")),
  // Values are functions (from code) or names from YAML; the registry may resolve names before construction.
  custom_filters: v.optional(v.nullable(v.record(v.string(), v.union([v.string(), v.function()]))), null),
  unsafe: v.optional(v.boolean(), false),
  validate_output_type: v.optional(v.boolean(), false),
  optional_variables: v.optional(v.nullable(v.array(v.string())), null),
});

export class ConditionalRouter extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.routers.conditional_router.ConditionalRouter";
  static override readonly aliases = ["ConditionalRouter"];
  static override readonly initSchema = Init;
  /** Haystack 3: YAML loaded in safe mode may not set `unsafe` or `custom_filters`. */
  static readonly checkSafeLoading = refuseUnsafeInit("a ConditionalRouter");

  private readonly routes: CompiledRoute[];
  private readonly filters: Record<string, CustomFilter> = {};
  /** The variables the route templates read, in first-use order. */
  readonly variables: readonly string[];

  constructor(init: unknown) {
    super(init);
    for (const [name, fn] of Object.entries(this.initParameters.custom_filters ?? {})) {
      this.filters[name] =
        typeof fn === "function"
          ? (fn as CustomFilter)
          : () => {
              throw new Error(`The custom filter '${name}' ('${fn}') is not available: its function was not registered.`);
            };
    }
    this.routes = this.initParameters.routes.map((raw) => this.compileRoute(raw));
    this.variables = [...new Set(this.routes.flatMap((r) => [...r.condition.variables, ...r.outputs.flatMap((o) => (o.template ? o.template.variables : [o.variable!]))]))];
    const unused = (this.initParameters.optional_variables ?? []).filter((name) => !this.variables.includes(name));
    // As Haystack: most likely a typo in a variable name, which would otherwise pass silently.
    if (unused.length) console.warn(`The following optional variables are specified but not used in any route: ${pythonRepr(unused)}. Check if there's a typo in variable names.`);
  }

  private compileRoute(raw: unknown): CompiledRoute {
    const parsed = v.safeParse(RouteSchema, raw);
    if (!parsed.success) throw new Error(`Route must contain 'condition', 'output', 'output_type' and 'output_name' fields: ${pythonRepr(raw)}`);
    const route = parsed.output;
    const [outputs, names, types] = [list(route.output), list(route.output_name), list(route.output_type)];
    if (outputs.length !== names.length || outputs.length !== types.length) throw new Error(`Route output, output_type and output_name must have same length: ${pythonRepr(raw)}`);
    const compile = (field: string, source: unknown) => {
      if (typeof source !== "string") {
        const shown = pythonRepr(source);
        throw new Error(
          `Invalid template for ${field}: ${shown} (type: ${pyTypeName(source)}). ${field === "condition" ? "Condition" : "Output"} must be a string representing a valid Jinja2 template. For example, use ${pythonRepr(shown)} instead of ${shown}.`,
        );
      }
      try {
        return compileTemplate(source, Object.keys(this.filters));
      } catch (e) {
        throw new Error(`Invalid template for ${field}: ${source} (${(e as Error).message})`);
      }
    };
    const passthrough = route.output_passthrough === true;
    return {
      route: route as Route,
      condition: compile("condition", route.condition),
      outputs: outputs.map((source, k) => {
        if (passthrough && typeof source !== "string") throw new Error(`A passthrough output names an input variable; got ${pythonRepr(source)}: ${pythonRepr(raw)}`);
        const out = passthrough ? { variable: source as string } : { template: compile("output", source) };
        return { ...out, name: names[k]!, schema: typeSchema(types[k]!) };
      }),
    };
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    const optional = this.initParameters.optional_variables ?? [];
    const specs: Record<string, InputSocketSpec> = {};
    for (const name of this.variables) if (!optional.includes(name)) specs[name] = socket();
    // Optional variables get a socket even when no template reads them, as in Haystack.
    for (const name of optional) specs[name] = socket(undefined, { default: null });
    return specs;
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    const specs: Record<string, OutputSocketSpec> = {};
    for (const r of this.routes) for (const o of r.outputs) specs[o.name] = output(o.schema);
    return specs;
  }

  /** Safe mode: the rendered string read as a literal (a condition must be one). Unsafe: native values. */
  private evaluate(template: CompiledTemplate, vars: Record<string, unknown>, isCondition: boolean): unknown {
    const options = { filters: this.filters };
    const rendered = this.initParameters.unsafe ? template.renderNative(vars, options) : template.render(vars, options);
    if (typeof rendered !== "string") return rendered;
    if (isCondition && !this.initParameters.unsafe) return literalEval(rendered);
    try {
      return literalEval(rendered);
    } catch {
      return rendered;
    }
  }

  run(inputs: Record<string, unknown>, _ctx?: ComponentContext): Record<string, unknown> {
    for (const { route, condition, outputs } of this.routes) {
      try {
        if (!truthy(this.evaluate(condition, inputs, true))) continue;
        const result: Record<string, unknown> = {};
        for (const o of outputs) {
          let value: unknown;
          if (o.variable !== undefined) {
            if (!Object.hasOwn(inputs, o.variable)) {
              throw new RouteValueError(`Variable '${o.variable}' not found in inputs for passthrough route '${o.name}'. Ensure '${o.variable}' is passed as an input to the router.`);
            }
            value = inputs[o.variable];
          } else {
            value = this.evaluate(o.template!, inputs, false);
          }
          if (this.initParameters.validate_output_type && o.schema && !v.is(o.schema, value)) throw new RouteValueError(`Route '${o.name}' type doesn't match expected type`);
          result[o.name] = value;
        }
        return result;
      } catch (e) {
        if (e instanceof RouteValueError) throw e;
        throw new RouteConditionException(`Error evaluating condition for route '${pythonRepr(route)}': ${(e as Error).message}`, { cause: e });
      }
    }
    throw new NoRouteSelectedException(`No route fired. Routes: ${pythonRepr(this.routes.map((r) => r.route))}`);
  }

  /** Function custom filters serialize as their names (Haystack writes the callable's import path). */
  override toDict() {
    const dict = super.toDict();
    const filters = this.initParameters.custom_filters;
    if (filters) dict.init_parameters.custom_filters = Object.fromEntries(Object.entries(filters).map(([k, f]) => [k, typeof f === "function" ? (callableName(f) ?? f.name) : f]));
    return dict;
  }
}
