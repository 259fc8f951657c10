/**
 * @module OutputAdapter (haystack.components.converters.output_adapter): reshapes values with a
 * Jinja template. The template's variables are the inputs; `output` is the rendered text read
 * back as a Python literal (ast.literal_eval: lists, dicts, numbers, booleans, None — anything
 * else stays text). With `unsafe: true` a one-expression template returns its value as is (Jinja's
 * NativeEnvironment), so objects such as Documents pass through. Both modes render in the engine's
 * sandbox (jinja.ts): "unsafe" changes only how the result is read, never what a template may do.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { callableName } from "../callable-names.js";
import { refuseUnsafeInit } from "../safe-loading.js";
import { compileTemplate, pythonRepr, type CompiledTemplate, type CustomFilter } from "../jinja.js";
import { literalEval, typeSchema } from "./conditional-router.js";

export class OutputAdaptationException extends Error {
  override name = "OutputAdaptationException";
}

const Init = v.object({
  template: v.string(),
  /** A Haystack type string: `str`, `typing.List[str]`, `list[haystack.dataclasses.document.Document]`, … */
  output_type: v.string(),
  // Functions (from code) or names from YAML, as ConditionalRouter takes them.
  custom_filters: v.optional(v.nullable(v.record(v.string(), v.union([v.string(), v.function()]))), null),
  unsafe: v.optional(v.boolean(), false),
});

export class OutputAdapter extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.output_adapter.OutputAdapter";
  static override readonly aliases = ["OutputAdapter"];
  static override readonly initSchema = Init;
  /** Haystack 3: YAML loaded in safe mode may not set `unsafe` or `custom_filters`. */
  static readonly checkSafeLoading = refuseUnsafeInit("an OutputAdapter");

  private readonly template: CompiledTemplate;
  private readonly filters: Record<string, CustomFilter> = {};

  constructor(init: unknown) {
    super(init);
    const p = this.initParameters;
    for (const [name, fn] of Object.entries(p.custom_filters ?? {})) {
      this.filters[name] =
        typeof fn === "function"
          ? (fn as CustomFilter)
          : () => {
              throw new Error(`The custom filter '${name}' ('${fn}') is not available: its function was not registered.`);
            };
    }
    try {
      this.template = compileTemplate(p.template, Object.keys(this.filters));
    } catch (error) {
      throw new Error(`Invalid Jinja template '${p.template}': ${(error as Error).message}`, { cause: error });
    }
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return Object.fromEntries(this.template.variables.map((name) => [name, socket()]));
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return { output: output(typeSchema(this.initParameters.output_type)) };
  }

  run(inputs: Record<string, unknown>, _ctx?: ComponentContext): { output: unknown } {
    if (!inputs || Object.keys(inputs).length === 0) throw new Error("No input data provided for output adaptation");
    const { template, unsafe } = this.initParameters;
    try {
      // Haystack's OutputAdapter renders with StrictUndefined: a missing field is an error, not "".
      const options = { filters: this.filters, strictUndefined: !unsafe };
      if (unsafe) {
        const value = this.template.renderNative(inputs, options);
        if (value === undefined) throw new Error(`Undefined variable in the template ${template}`);
        return { output: value };
      }
      const rendered = this.template.render(inputs, options);
      try {
        return { output: literalEval(rendered) };
      } catch {
        return { output: rendered };
      }
    } catch (error) {
      throw new OutputAdaptationException(`Error adapting ${template} with ${pythonRepr(inputs)}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Function custom filters serialize as their names (Haystack writes the callable's import path). */
  override toDict() {
    const dict = super.toDict();
    const filters = this.initParameters.custom_filters;
    if (filters) dict.init_parameters.custom_filters = Object.fromEntries(Object.entries(filters).map(([k, f]) => [k, typeof f === "function" ? (callableName(f) ?? f.name) : f]));
    return dict;
  }
}
