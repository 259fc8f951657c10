/**
 * @module The document stores a deployed YAML pipeline holds: the init parameters of its
 * components, searched one level deep (a retriever's or writer's `document_store`), so the plugin
 * can close their pools when the pipeline goes.
 */
export function storesOf<T>(wrapper: unknown, type: abstract new (...args: any[]) => T): T[] {
  const pipeline = (wrapper as { pipeline?: { componentNames?: string[]; getComponent?(name: string): unknown } } | null)?.pipeline;
  if (!pipeline?.componentNames || !pipeline.getComponent) return [];
  const found = new Set<T>();
  for (const name of pipeline.componentNames) {
    const params = (pipeline.getComponent(name) as { initParameters?: Record<string, unknown> }).initParameters ?? {};
    for (const value of Object.values(params)) if (value instanceof type) found.add(value);
  }
  return [...found];
}
