import { test } from "uvu";
import * as assert from "uvu/assert";
import { isoTime } from "../../../plugins/monitoring/execution-id.js";

test("isoTime writes what Date#toISOString writes, across seconds, days and years", () => {
  const starts = [0, 999, 1000, Date.UTC(2026, 10, 27, 23, 59, 59, 998), Date.UTC(2024, 1, 29, 12), Date.now(), 253402300799000];
  for (const start of starts) {
    for (let ms = start; ms < start + 1500; ms += 7) {
      if (ms > 253402300799999) break;
      assert.is(isoTime(ms), new Date(ms).toISOString(), String(ms));
    }
  }
  // Outside years 0000–9999 (and fractions) as the Date does it.
  for (const ms of [-1, -62198755200000, 253402300800000, 1.5]) assert.is(isoTime(ms), new Date(ms).toISOString());
});

test.run();
