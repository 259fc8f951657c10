/**
 * @module The template's HTTP routes.
 */
import * as v from "valibot";
import type { PluginApi } from "@svc-serve/svc/plugin";
import type { TemplateOptions } from "./options.js";
import type { RunStats } from "./run-stats.js";
import type { templateSettings } from "./settings.js";

export function registerRoutes(kernel: PluginApi<typeof templateSettings>, options: TemplateOptions, stats: RunStats): void {
  const EchoBody = v.object({ text: v.pipe(v.string(), v.maxLength(kernel.settings.templateMaxEchoLength)) });

  kernel.route("GET", `${options.prefix}/hello`, (c) => {
    const name = typeof c.query.name === "string" && c.query.name ? c.query.name : "world";
    return { message: `${options.greeting}, ${name}!` };
  });

  kernel.route("POST", `${options.prefix}/echo`, async (c) => {
    const body = await c.json(EchoBody);
    return { text: body.text, length: body.text.length };
  });

  kernel.route("GET", `${options.prefix}/stats`, () => ({ pipelines: stats.snapshot() }));
}
