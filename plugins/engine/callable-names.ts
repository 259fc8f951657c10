/**
 * @module The names under which YAML referred to functions (a `streaming_callback` import path,
 * a tool's function), so that a component made from YAML dumps back to the same name.
 */
const names = new WeakMap<object, string>();

export function rememberCallableName(fn: object, name: string): void {
  names.set(fn, name);
}

export function callableName(fn: unknown): string | undefined {
  return typeof fn === "function" ? names.get(fn) : undefined;
}
