/**
 * @module PluginHost: checks the plugin list (unique names, options, and what each declares it
 * depends on, provides and needs: plugin-plan.ts) before any `setup` runs, then sets plugins up in
 * the planned order under a timeout, and closes them in reverse. When a setup fails, the plugins
 * already set up are closed again: the kernel never runs half-configured.
 */
import * as v from "valibot";
import { kernelErrors } from "./errors.js";
import type { Logger } from "./logger.js";
import type { KernelPlugin, PluginApi, PluginEntry } from "./plugin.js";
import { planPlugins } from "./plugin-plan.js";
import { formatIssues } from "./validation.js";

interface Prepared {
  readonly plugin: KernelPlugin;
  readonly options: unknown;
}

export class PluginHost {
  private readonly started: KernelPlugin[] = [];

  constructor(
    private readonly log: Logger,
    private readonly setupTimeoutMs: number,
  ) {}

  get names(): string[] {
    return this.started.map((p) => p.name);
  }

  /**
   * Validates every entry, then sets each up with the API `open` makes for it (and ends its setup
   * with `endSetup`). `registered` tells which tokens the root container holds already.
   */
  async start(
    entries: readonly PluginEntry[],
    registered: (token: symbol) => boolean,
    open: (plugin: KernelPlugin) => { api: PluginApi; endSetup(): void },
  ): Promise<void> {
    const prepared = planPlugins(this.prepare(entries), registered);
    for (const { plugin, options } of prepared) {
      try {
        const { api, endSetup } = open(plugin);
        await withTimeout(Promise.resolve(plugin.setup(api, options)), this.setupTimeoutMs);
        endSetup();
      } catch (error) {
        await this.close();
        throw kernelErrors.pluginSetup(plugin.name, error);
      }
      this.started.push(plugin);
      this.log.debug(`Plugin set up`, { plugin: plugin.name });
    }
  }

  /** Closes started plugins in reverse order; a failing close is logged and the rest still close. */
  async close(): Promise<void> {
    while (this.started.length) {
      const plugin = this.started.pop()!;
      try {
        await plugin.close?.();
      } catch (error) {
        this.log.error(`Plugin '${plugin.name}' failed to close`, error);
      }
    }
  }

  private prepare(entries: readonly PluginEntry[]): Prepared[] {
    const seen = new Set<string>();
    return entries.map((entry) => {
      const { plugin, options } = "setup" in entry ? { plugin: entry, options: undefined } : entry;
      if (seen.has(plugin.name)) throw kernelErrors.pluginDuplicate(plugin.name);
      seen.add(plugin.name);
      if (!plugin.options) return { plugin, options };
      // No options given means an empty options object, so schemas can apply their defaults.
      const result = v.safeParse(plugin.options, options ?? {});
      if (!result.success) throw kernelErrors.pluginOptions(plugin.name, formatIssues(result.issues));
      return { plugin, options: result.output };
    });
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`setup did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer)) as Promise<T>;
}

