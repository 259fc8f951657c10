import { test } from "uvu";
import * as assert from "uvu/assert";
import { fromRounds, passes, ratioOfRounds, summary, withinNoise, type Figure } from "../../bench/bars.js";

const ratio = (value: number, noise: number): Figure => ({ name: "/run vs bare", value, bar: 0.75, noise, direction: "at least", unit: "×" });
const memory = (value: number, noise: number): Figure => ({ name: "idle RSS", value, bar: 80, noise, direction: "at most", unit: "MB" });

test("a figure's value is the median of its rounds and its noise half their spread", () => {
  assert.equal(fromRounds([3, 1, 2]), { value: 2, noise: 1 });
  assert.equal(fromRounds([7]), { value: 7, noise: 0 });
});

test("from four rounds on, the outer quarter on each side is left out of the noise", () => {
  assert.equal(fromRounds([4, 1, 2, 3]), { value: 2.5, noise: 0.5 });
  // Ten rounds near 0.6 and one stalled baseline round (2.1): the noise stays that of the ten.
  const { value, noise } = fromRounds([0.6, 0.62, 0.58, 0.61, 0.59, 0.63, 0.6, 0.57, 2.1, 0.64]);
  assert.ok(Math.abs(value - 0.605) < 1e-9);
  assert.ok(noise < 0.03);
});

test("a ratio over alternating rounds is taken per round, not from the two medians", () => {
  // Per round 0.5, 0.8, 0.6: median 0.6, spread 0.3. The ratio of medians (30/40) would be 0.75.
  const { value, noise } = ratioOfRounds([10, 40, 30], [20, 50, 50]);
  assert.ok(Math.abs(value - 0.6) < 1e-9);
  assert.ok(Math.abs(noise - 0.15) < 1e-9);
});

test("a figure passes only when its median meets the bar; noise does not count in its favour", () => {
  assert.ok(passes(ratio(0.8, 0)));
  assert.ok(passes(ratio(0.75, 0.5)));
  assert.not.ok(passes(ratio(0.7, 0.06))); // within noise: still a miss
  assert.ok(withinNoise(ratio(0.7, 0.06)));
  assert.not.ok(passes(ratio(0.7, 0.04)));
  assert.not.ok(withinNoise(ratio(0.7, 0.04)));
  assert.ok(passes(memory(79, 0)));
  assert.ok(passes(memory(80, 9)));
  assert.not.ok(passes(memory(82, 3)));
  assert.ok(withinNoise(memory(82, 3)));
  assert.not.ok(withinNoise(memory(79, 3))); // a pass is never "within noise"
});

test("the summary prints each median with its noise beside it, PASS/FAIL, and returns the failures", () => {
  const figures = [ratio(0.8, 0.02), memory(140, 3), ratio(0.74, 0.05)];
  const { lines, failed } = summary(figures);
  assert.equal(failed, [figures[1], figures[2]]);
  assert.equal(lines.length, 5); // title, header, three figures
  assert.match(lines[2]!, /^\/run vs bare\s+0\.80 ± 0\.02 ×\s+≥ 0\.75 ×\s+PASS$/);
  assert.match(lines[3]!, /^idle RSS\s+140\.0 ± 3\.0 MB\s+≤ 80\.0 MB\s+FAIL$/);
  assert.match(lines[4]!, /^\/run vs bare\s+0\.74 ± 0\.05 ×\s+≥ 0\.75 ×\s+FAIL \(within noise\)$/);
  assert.equal(summary([]).failed, []);
});

test.run();
