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
  // Config order, each plugin preceded by what it needs that is not set up yet (depth first).
  const byName = new Map(entries.map((e) => [e.plugin.name, e]));
  const placed = new Set<string>();
  const visiting: string[] = [];
  const order: E[] = [];
  const place = (name: string): void => {
    if (placed.has(name)) return;
    if (visiting.includes(name)) throw kernelErrors.pluginCycle(visiting.slice(visiting.indexOf(name)));
    visiting.push(name);
    for (const first of after.get(name)!) place(first);
    visiting.pop();
    placed.add(name);
    order.push(byName.get(name)!);
  };
  for (const { plugin } of entries) place(plugin.name);
  return order;
}
