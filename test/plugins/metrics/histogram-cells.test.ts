/**
 * The request-duration histogram kept in cells and copied into prom-client at scrape time must
 * read exactly as prom-client's own `observe` would have made it: buckets, sum, count, order.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Histogram, Registry } from "prom-client";
import { HistogramCells } from "../../../plugins/metrics/histogram-cells.js";

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function pair() {
  const direct = new Registry();
  const deferred = new Registry();
  const help = { name: "svc_http_request_duration_seconds", help: "h", labelNames: ["route", "method"], buckets: BOUNDS };
  const reference = new Histogram({ ...help, registers: [direct] });
  const cells = new HistogramCells(BOUNDS);
  new Histogram({ ...help, registers: [deferred], collect: cells.into() });
  return { direct, deferred, reference, cells };
}

test("cells read at scrape time as prom-client's observe: buckets, sums, counts, series order", async () => {
  const { direct, deferred, reference, cells } = pair();
  const series = new Map<string, ReturnType<typeof cells.add>>();
  // Bounds exactly, between, above the last bound, zero, and sums that round in float.
  const values = [0.005, 0.0051, 0.1, 0.1 + 0.2, 0, 61, 1e-9, 2.5, 0.3, 59.999, 1 / 3, 7];
  const routes = [["/b/run", "POST"], ["/a", "GET"], ["/b/run", "GET"]] as const;
  const observeAll = (from: number) => {
    values.forEach((v, i) => {
      const [route, method] = routes[(i + from) % routes.length]!;
      reference.labels(route, method).observe(v);
      const key = `${route} ${method}`;
      let cell = series.get(key);
      if (!cell) series.set(key, (cell = cells.add({ route, method })));
      cells.observe(cell, v);
    });
  };
  observeAll(0);
  assert.fixture(await deferred.metrics(), await direct.metrics());
  observeAll(1); // a second scrape after more observations: nothing counted twice
  const text = await deferred.metrics();
  assert.fixture(text, await direct.metrics());
  assert.match(text, 'svc_http_request_duration_seconds_bucket{le="+Inf",route="/b/run",method="POST"} 8');
});

test("a scrape with no observations shows no series; a non-finite value is refused as prom-client does", async () => {
  const { direct, deferred, reference, cells } = pair();
  assert.fixture(await deferred.metrics(), await direct.metrics());
  const cell = cells.add({ route: "/x", method: "GET" });
  assert.throws(() => cells.observe(cell, Number.NaN), /not a valid number/);
  assert.throws(() => reference.labels("/x", "GET").observe(Number.NaN), /not a valid number/);
});

test.run();
