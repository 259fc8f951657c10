/**
 * @module PromptBuilder: renders a Jinja2 template into a prompt string (Haystack's
 * builders.prompt_builder.PromptBuilder). One input socket per template variable; the helpers
 * for variable sockets and required-variable checks are shared with ChatPromptBuilder.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { compileTemplate, pythonRepr, type CompiledTemplate } from "../jinja.js";

/** The Jinja2 extensions Haystack's builders enable (PromptBuilder, ChatPromptBuilder). */
export const HAYSTACK_EXTENSIONS = { now: true } as const;

export type RequiredVariables = readonly string[] | "*" | null;

/** Haystack 3.x default: `"*"`, every template variable is required; an explicit `null` makes all optional (2.x's default). */
export const requiredVariablesSchema = v.optional(v.nullable(v.union([v.literal("*"), v.array(v.string())])), "*");
export const variablesSchema = v.optional(v.nullable(v.array(v.string())), null);
/** Described as Haystack's run docstring describes it (a ComponentTool's parameter description). */
export const templateVariablesSocket = () => socket(v.pipe(v.nullable(v.record(v.string(), v.unknown())), v.description("An optional dictionary of template variables to overwrite the pipeline variables.")), { default: null });

/** One socket per variable, any type: mandatory when required, otherwise defaulting to "" (as in Haystack). */
export function variableSockets(variables: readonly string[], required: RequiredVariables): Record<string, InputSocketSpec> {
  const specs: Record<string, InputSocketSpec> = {};
  for (const name of variables) specs[name] = required === "*" || required?.includes(name) ? socket() : socket(undefined, { default: "" });
  return specs;
}

/**
 * Splits run inputs into the template override and the render variables. `template_variables`
 * override same-named inputs; inputs left undefined count as not provided.
 */
export function renderVariables(inputs: Record<string, unknown>): { template: unknown; variables: Record<string, unknown> } {
  const { template, template_variables, ...rest } = inputs;
  const provided = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return { template, variables: { ...provided, ...((template_variables as Record<string, unknown> | null) ?? {}) } };
}

/**
 * Haystack's warning when a builder is made with `required_variables: null` (every variable
 * optional, which lets a multi-branch pipeline run a builder with none of its inputs). A warning
 * at build time, as the DocumentSplitter's: the component has no run logger yet.
 */
export function warnAllOptional(component: string, variables: readonly string[], required: RequiredVariables): void {
  if (variables.length === 0 || required !== null) return;
  console.warn(
    `${component} has ${variables.length} prompt variables and \`required_variables\` is explicitly set to \`None\`. ` +
      "This treats all prompt variables as optional, which may lead to unintended behavior in multi-branch pipelines. " +
      "Only set `required_variables` to `None` if you intentionally want all variables to be optional.",
  );
}

/** Haystack's `_validate_variables`: every required variable must be provided. */
export function checkRequired(component: string, variables: readonly string[], required: RequiredVariables, provided: Record<string, unknown>): void {
  const needed = required === "*" ? [...variables].sort() : [...(required ?? [])];
  const missing = needed.filter((name) => !Object.hasOwn(provided, name));
  if (missing.length) {
    throw new Error(
      `Missing required input variables in ${component}: ${missing.join(", ")}. ` +
        `Required variables: ${pythonRepr(needed)}. Provided variables: ${pythonRepr(Object.keys(provided))}.`,
    );
  }
}

interface PromptBuilderInit {
  template: string;
  required_variables: RequiredVariables;
  variables: string[] | null;
}

export class PromptBuilder extends Component<PromptBuilderInit> {
  static override readonly type = "haystack.components.builders.prompt_builder.PromptBuilder";
  static override readonly aliases = ["PromptBuilder"];
  static override readonly initSchema = v.strictObject({ template: v.string(), required_variables: requiredVariablesSchema, variables: variablesSchema });

  private readonly compiled: CompiledTemplate;
  /** The template's variables: `variables` when given, else those the template reads. */
  readonly variables: readonly string[];

  constructor(init: unknown) {
    super(init);
    // Compiling here reports template errors when the pipeline is built, not at its first run.
    this.compiled = compileTemplate(this.initParameters.template, [], HAYSTACK_EXTENSIONS);
    this.variables = this.initParameters.variables ?? this.compiled.variables;
    warnAllOptional("PromptBuilder", this.variables, this.initParameters.required_variables);
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return {
      ...variableSockets(this.variables, this.initParameters.required_variables),
      template: socket(v.pipe(v.nullable(v.string()), v.description("An optional string template to overwrite PromptBuilder's default template. If None, the default template\nprovided at initialization is used.")), { default: null }),
      template_variables: templateVariablesSocket(),
    };
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return { prompt: output(v.string()) };
  }

  run(inputs: Record<string, unknown>, _ctx?: ComponentContext): { prompt: string } {
    const { template, variables } = renderVariables(inputs);
    checkRequired("PromptBuilder", this.variables, this.initParameters.required_variables, variables);
    const compiled = typeof template === "string" ? compileTemplate(template, [], HAYSTACK_EXTENSIONS) : this.compiled;
    return { prompt: compiled.render(variables) };
  }
}
