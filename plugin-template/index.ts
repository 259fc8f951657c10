/**
 * @module A working third-party svc plugin to copy. It adds a route group and a
 * `run` interceptor, and declares a setting. Build it (`npm run build`) and load it with
 * `svc run --plugin <this folder>`, or load the source: `svc run --plugin ./index.ts`.
 */
import { definePlugin, type KernelPlugin } from "@svc-serve/svc/plugin";
import { TemplateOptionsSchema, type TemplateOptions } from "./options.js";
import { RunStats } from "./run-stats.js";
import { registerRoutes } from "./routes.js";
import { templateSettings } from "./settings.js";

export { TemplateOptionsSchema, type TemplateOptions } from "./options.js";
export { RunStats, type PipelineStats } from "./run-stats.js";
export { templateSettings } from "./settings.js";

/** The plugin factory; svc calls it with the options from the config file. */
export default function templatePlugin(): KernelPlugin<TemplateOptions> {
  const stats = new RunStats();
  return definePlugin({
    name: "svc-plugin-template",
    version: "0.1.0",
    options: TemplateOptionsSchema,
    // Merged into svc's settings table; `kernel.settings.templateMaxEchoLength` is typed in setup.
    settings: templateSettings,
    setup(kernel, options) {
      kernel.hooks.run.tap(stats.interceptor);
      registerRoutes(kernel, options, stats);
      kernel.log.debug("template plugin ready", { prefix: options.prefix });
    },
  });
}
