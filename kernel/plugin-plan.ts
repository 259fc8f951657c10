/**
 * @module The boot plan: checks what the loaded plugins declare (`dependsOn`, `provides`, `needs`,
 * `optional`) before any `setup` runs, and orders them: config order, except that each plugin sets
 * up after the plugins it depends on and the providers of the tokens it needs.
 */
import { kernelErrors } from "./errors.js";
import type { KernelPlugin } from "./plugin.js";
import { providerOf } from "./tokens.js";

/** How errors name a token: its description (`svc.mcp.toolServer`). */
export function tokenName(token: symbol): string {
  return token.description ?? String(token);
}

/**
 * The entries in setup order. `registered` tells whether the root container (the kernel or the
 * host) already holds a token, which satisfies a need without a providing plugin.
 */
export function planPlugins<E extends { readonly plugin: KernelPlugin }>(entries: readonly E[], registered: (token: symbol) => boolean): E[] {
  const names = new Set(entries.map((e) => e.plugin.name));
  const providers = new Map<symbol, string>();
  for (const { plugin } of entries) {
    for (const token of plugin.provides ?? []) {
      const other = providers.get(token);
      if (other) throw kernelErrors.tokenDuplicate(tokenName(token), plugin.name, other);
      providers.set(token, plugin.name);
    }
  }
  const after = new Map<string, Set<string>>();
  for (const { plugin } of entries) {
    const first = new Set<string>();
    for (const dep of plugin.dependsOn ?? []) {
      if (!names.has(dep)) throw kernelErrors.pluginDependency(plugin.name, dep);
      first.add(dep);
    }
    for (const token of plugin.needs ?? []) {
      const provider = providers.get(token);
      if (provider) first.add(provider);
      else if (!registered(token)) throw kernelErrors.tokenNeeded(plugin.name, tokenName(token), providerOf(token));
    }
    for (const token of plugin.optional ?? []) {
      const provider = providers.get(token);
      if (provider) first.add(provider);
    }
    first.delete(plugin.name);
    after.set(plugin.name, first);
  }
  // Stable: the first plugin in config order whose prerequisites are set up goes next.
  const placed = new Set<string>();
  const order: E[] = [];
  while (order.length < entries.length) {
    const next = entries.find((e) => !placed.has(e.plugin.name) && [...after.get(e.plugin.name)!].every((n) => placed.has(n)));
    if (!next) throw kernelErrors.pluginCycle(entries.map((e) => e.plugin.name).filter((n) => !placed.has(n)));
    placed.add(next.plugin.name);
    order.push(next);
  }
  return order;
}
