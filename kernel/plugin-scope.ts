/**
 * @module PluginScope: what one plugin sees of the DI container. Each plugin gets a child of the
 * root container (the kernel's services and the host's), so what it registers there stays its
 * own. What it `provide`s is kept in the kernel's `Exports` and copied into the container of each
 * plugin that declares the token in `needs` or `optional`, as that plugin sets up; nothing else
 * crosses from one plugin to another.
 */
import type { DependencyContainer } from "tsyringe";
import { kernelErrors } from "./errors.js";
import type { KernelPlugin } from "./plugin.js";
import { tokenName } from "./plugin-plan.js";
import type { Token } from "./tokens.js";

/** The services plugins provided, by token, with the plugin that provided each. */
export class Exports {
  private readonly entries = new Map<symbol, { readonly plugin: string; readonly value: unknown }>();

  get(token: symbol): { readonly plugin: string; readonly value: unknown } | undefined {
    return this.entries.get(token);
  }

  set(token: symbol, plugin: string, value: unknown): void {
    this.entries.set(token, { plugin, value });
  }
}

export class PluginScope {
  readonly container: DependencyContainer;
  private readonly declared: ReadonlySet<symbol>;
  private settingUp = true;

  constructor(
    private readonly plugin: KernelPlugin,
    private readonly root: DependencyContainer,
    private readonly exports: Exports,
  ) {
    this.container = root.createChildContainer();
    const used = [...(plugin.needs ?? []), ...(plugin.optional ?? [])];
    this.declared = new Set([...used, ...(plugin.provides ?? [])]);
    for (const token of used) {
      const provided = exports.get(token);
      if (provided && !root.isRegistered(token, true)) this.container.register(token, { useValue: provided.value });
    }
  }

  provide<T>(token: Token<T>, value: T): void {
    const { name, provides = [] } = this.plugin;
    if (!provides.includes(token)) throw kernelErrors.tokenUndeclared(name, tokenName(token), "provides");
    if (!this.settingUp) throw kernelErrors.tokenMissing(name, tokenName(token), "is provided after setup: provide services during setup");
    // The host's registration made before boot wins over the plugin's.
    if (this.root.isRegistered(token, true)) return;
    this.exports.set(token, name, value);
    this.container.register(token, { useValue: value });
  }

  resolve<T>(token: Token<T>): T {
    const value = this.optional(token);
    if (value === undefined && !this.container.isRegistered(token, true)) {
      throw kernelErrors.tokenMissing(this.plugin.name, tokenName(token), "is not provided: no loaded plugin or host provides it (use optional() for a service that may be absent)");
    }
    return value as T;
  }

  optional<T>(token: Token<T>): T | undefined {
    if (this.container.isRegistered(token, true)) return this.container.resolve<T>(token);
    if (this.declared.has(token)) return undefined;
    throw kernelErrors.tokenUndeclared(this.plugin.name, tokenName(token), "needs", this.exports.get(token)?.plugin);
  }

  /** Ends `setup`: every token of `provides` must be there now (the plugin's own, or the host's). */
  endSetup(): void {
    this.settingUp = false;
    for (const token of this.plugin.provides ?? []) {
      if (!this.container.isRegistered(token, true)) {
        throw kernelErrors.tokenMissing(this.plugin.name, tokenName(token), "is declared in provides but was not provided during setup");
      }
    }
  }
}
