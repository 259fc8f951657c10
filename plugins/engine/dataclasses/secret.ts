/**
 * @module Secret: a credential read from environment variables at run time, serialized in YAML as
 * `{type: env_var, env_vars: [...], strict: true}`. Token secrets (literal values) cannot be
 * serialized, as in Haystack.
 */
import * as v from "valibot";

export class Secret {
  static readonly typeName = "Secret";

  /** Use `fromEnvVar` or `fromToken`. */
  constructor(
    readonly envVars: readonly string[],
    readonly strict: boolean,
    private readonly token?: string,
  ) {}

  static fromEnvVar(envVars: string | string[], strict = true): Secret {
    return new Secret(Array.isArray(envVars) ? envVars : [envVars], strict);
  }

  static fromToken(token: string): Secret {
    return new Secret([], false, token);
  }

  /** The first set variable's value; undefined when none is set and the secret is not strict. */
  resolveValue(env: NodeJS.ProcessEnv = process.env): string | undefined {
    if (this.token !== undefined) return this.token;
    for (const name of this.envVars) {
      const value = env[name];
      if (value) return value;
    }
    if (this.strict) throw new Error(`None of the following authentication environment variables are set: ${this.envVars.join(", ")}`);
    return undefined;
  }

  toDict(): { type: "env_var"; env_vars: string[]; strict: boolean } {
    if (this.token !== undefined) throw new Error("Cannot serialize token-based secret. Use an alternative secret type like environment variables.");
    return { type: "env_var", env_vars: [...this.envVars], strict: this.strict };
  }

  static isSerialized(value: unknown): value is { type: "env_var"; env_vars: string[]; strict?: boolean } {
    const v = value as { type?: unknown; env_vars?: unknown } | null;
    return !!v && typeof v === "object" && v.type === "env_var" && Array.isArray(v.env_vars);
  }

  static fromDict(d: { env_vars: string[]; strict?: boolean }): Secret {
    return Secret.fromEnvVar(d.env_vars, d.strict ?? true);
  }
}

/** An init parameter that takes a Secret (or its YAML form, or nothing for a default). */
export function secretParameter(defaultEnv: string | string[], strict = true) {
  const envVars = Array.isArray(defaultEnv) ? defaultEnv : [defaultEnv];
  return v.pipe(
    // A default (not just optional) so an absent key still reaches the transform inside v.object.
    v.optional(v.union([v.instance(Secret), v.object({ type: v.literal("env_var"), env_vars: v.array(v.string()), strict: v.optional(v.boolean()) })]), () => ({
      type: "env_var" as const,
      env_vars: envVars,
      strict,
    })),
    v.transform((value) => (value instanceof Secret ? value : Secret.fromDict(value))),
  );
}
