/**
 * The built-in plugin names are listed twice on purpose: `svc run` imports each plugin only when
 * it is used (cli/default-plugins.ts), the host entry imports them all (host/index.ts). The two
 * lists must name the same plugins, and each name the same module.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { builtinPlugins as lazy } from "../../cli/default-plugins.js";
import { builtinPlugins as eager, defaultPlugins } from "../../host/index.js";

test("svc run's lazy built-ins and the host's are the same names", () => {
  assert.equal(Object.keys(lazy).sort(), Object.keys(eager).sort());
});

test("each name loads the same plugin module in both", async () => {
  for (const [name, load] of Object.entries(lazy)) assert.is(await load(), eager[name], name);
});

test("defaultPlugins() builds svc run's default set from them", () => {
  const names = defaultPlugins({ chatUiEnabled: true }).map((p) => p.name);
  assert.ok(names.includes("svc:engine") && names.includes("svc:run-api") && names.includes("svc:chat-ui"), names.join(", "));
});

test.run();
