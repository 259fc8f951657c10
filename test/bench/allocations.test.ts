import { test } from "uvu";
import * as assert from "uvu/assert";
import { fileURLToPath } from "node:url";
import { sampleAllocations } from "../../bench/allocation-sampler.js";
import { startTarget } from "../../bench/target.js";

const SERVER = fileURLToPath(new URL("../../bench/server.js", import.meta.url));

async function post(port: number, requests: number): Promise<number> {
  for (let i = 0; i < requests; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/adder/run`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":2,"b":3}' });
    assert.equal(await res.json(), { result: 5 });
  }
  return requests;
}

test("a bench target reports the bytes its requests allocate, by function, only while sampled", async () => {
  const target = await startTarget(SERVER, ["svc-default"]);
  try {
    await post(target.port, 20);
    const sample = await sampleAllocations(target, () => post(target.port, 200));
    assert.ok(sample.total > 500, `a request allocates something: ${sample.total} B`);
    const total = sample.byFunction.reduce((sum, [, bytes]) => sum + bytes, 0);
    assert.ok(Math.abs(total - sample.total) < 1e-6 * sample.total, "the functions' bytes add up to the total");
    assert.ok(
      sample.byFunction.some(([name]) => name.includes("kernel/http/")),
      `svc's HTTP layer is among the allocating functions: ${sample.byFunction.slice(0, 5).map(([name]) => name).join("; ")}`,
    );
    // Sampling stopped: a second sample covers only its own requests.
    const idle = await sampleAllocations(target, async () => 1);
    assert.ok(idle.total < (sample.total * 200) / 2, `the second sample does not include the first one's requests: ${idle.total} B`);
  } finally {
    target.kill();
  }
});

test.run();
