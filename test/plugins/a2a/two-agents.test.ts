/**
 * docs/a2a.md's two-agent example, run: the page's weather agent and trip planner (examples
 * `a2a-weather-agent` and `a2a-trip-planner`) deployed as written, the planner asked through the
 * SDK client; it delegates to the weather agent over A2A. Both calls are traced as `svc.a2a.run`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import runsPlugin from "svc/runs";
import a2aPlugin from "svc/a2a";
import tracingPlugin from "../../../plugins/tracing/index.js";
import type { WireTrace } from "../../../plugins/tracing/index.js";
import { repoRoot } from "../../helpers/cli.js";
import { codeBlocks } from "../../helpers/docs.js";
import { startPipelineKernel } from "../../helpers/pipelines.js";
import { asTask, clientOf, message, textOf, until } from "./fixtures.js";

const OPERATOR_TOKEN = "a2a-two-agents-operator";
const example = (id: string): string => {
  const block = codeBlocks("docs/a2a.md").find((b) => b.marker?.kind === "example" && b.marker.id === id);
  if (!block) throw new Error(`docs/a2a.md: no example '${id}'`);
  return block.code;
};

test("the trip planner asks the weather agent over A2A and answers with its forecast; both runs are traced", async () => {
  // Inside the checkout, so the planner's `@a2a-js/sdk` import resolves as it does in a project.
  mkdirSync(join(repoRoot, "test-output"), { recursive: true });
  const dir = join(mkdtempSync(join(repoRoot, "test-output", "a2a-two-agents-")), "pipelines");
  const k = await startPipelineKernel({ dir, settings: { operatorToken: OPERATOR_TOKEN }, plugins: [tracingPlugin(), runsPlugin(), a2aPlugin()] });
  try {
    process.env.WEATHER_AGENT_URL = `${k.url}/weather_agent/`;
    for (const [name, id] of [["weather_agent", "a2a-weather-agent"], ["trip_planner", "a2a-trip-planner"]]) {
      const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": example(id!) }, overwrite: true });
      assert.is(res.status, 200, JSON.stringify(res.body));
    }
    const planner = await clientOf(k.url, "trip_planner");
    assert.is((await planner.getAgentCard()).description, "Plans a day out, asking the weather agent first.");
    const task = asTask(await planner.sendMessage(message("Lisbon")));
    assert.is(textOf(task), "The weather agent says: Sunny and 21 °C in Lisbon. A day at the lake, then dinner outside.");
    const traces = await until(
      async () => ((await (await fetch(`${k.url}/traces?limit=100`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json()) as { traces: WireTrace[] }).traces,
      (t) => t.filter((x) => x.root_span?.name === "svc.a2a.run" && x.state === "ok").length >= 2,
    );
    const a2a = traces.filter((t) => t.root_span?.name === "svc.a2a.run");
    assert.equal(a2a.map((t) => t.entrypoint).sort(), ["trip_planner", "weather_agent"]);
  } finally {
    delete process.env.WEATHER_AGENT_URL;
    await k.close();
  }
});

test.run();
