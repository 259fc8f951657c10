/** Runs `fn` with these environment variables set (undefined: unset), then puts back what was there. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const assign = (values: Record<string, string | undefined>) =>
    Object.entries(values).forEach(([k, value]) => (value === undefined ? delete process.env[k] : (process.env[k] = value)));
  assign(vars);
  try {
    return await fn();
  } finally {
    assign(saved);
  }
}

/** A component run context whose logger records warnings and errors (Haystack's caplog). */
export function loggedContext(name: string) {
  const warnings: string[] = [];
  const errors: string[] = [];
  const log = {
    warn: (m: string) => void warnings.push(m),
    error: (m: string) => void errors.push(m),
    info: () => undefined,
    debug: () => undefined,
    child: () => log,
  } as any;
  return { ctx: { name, signal: new AbortController().signal, tracer: undefined as any, log }, warnings, errors };
}
