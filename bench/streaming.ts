/**
 * @module Streaming benchmarks, svc against the bare node:http SSE server in the same run:
 * chunks per second of a 1,000-chunk chat completion stream, and the time to the first byte of a
 * one-chunk stream (p50 over 50 requests on a kept-alive connection). Rounds alternate between
 * the targets so drift on a shared machine hits both alike.
 */
import { Agent, request } from "node:http";
import { fromRounds, ratioOfRounds, record } from "./bars.js";

const STREAM_CHUNKS = 1000;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 10);
const TTFB_REQUESTS = Number(process.env.BENCH_TTFB_REQUESTS ?? 50);
/** TTFB requests per group: each group gives one p50 overhead, the groups give the noise. */
const TTFB_GROUP = 10;

interface Timing {
  ttfb: number;
  total: number;
  chunks: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One streaming chat request: ms to the first body byte, ms to the end, `data:` events received. */
function chat(port: number, chunks: number): Promise<Timing> {
  const body = JSON.stringify({ model: "streamer", messages: [{ role: "user", content: "go" }], stream: true, chunks });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfb = 0;
    let text = "";
    const req = request({ host: "127.0.0.1", port, path: "/v1/chat/completions", method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        if (!ttfb) ttfb = performance.now() - started;
        text += d;
      });
      res.on("end", () => {
        if (res.statusCode !== 200 || !text.endsWith("data: [DONE]\n\n")) return reject(new Error(`bad stream from :${port}: ${res.statusCode} ${text.slice(0, 200)}`));
        resolve({ ttfb, total: performance.now() - started, chunks: text.split("\ndata: ").length - 1 });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Table rows and summary lines in bench/index.ts's style. */
export async function streamingBench(ports: { bare: number; svc: number }): Promise<string[]> {
  const kinds = ["bare", "svc"] as const;
  for (const kind of kinds) for (let i = 0; i < 10; i++) await chat(ports[kind], i % 2 ? 1 : 100); // warm-up

  const rate = { bare: [] as number[], svc: [] as number[] };
  for (let round = 0; round < STREAMS; round++) {
    for (const kind of kinds) {
      const t = await chat(ports[kind], STREAM_CHUNKS);
      if (t.chunks < STREAM_CHUNKS) throw new Error(`${kind}: only ${t.chunks} chunks`);
      rate[kind].push((STREAM_CHUNKS / t.total) * 1000);
    }
  }
  const ttfb = { bare: [] as number[], svc: [] as number[] };
  for (let i = 0; i < TTFB_REQUESTS; i++) for (const kind of kinds) ttfb[kind].push((await chat(ports[kind], 1)).ttfb);
  agent.destroy();

  const header = ["target", "scenario", "chunks/s", "TTFB p50 ms", "TTFB p99 ms"];
  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
  const table = [
    header,
    ...kinds.map((kind) => [kind, `chat stream (${STREAM_CHUNKS} chunks; TTFB of 1)`, String(Math.round(median(rate[kind]))), median(ttfb[kind]).toFixed(2), p99(ttfb[kind]).toFixed(2)]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const rateRatio = ratioOfRounds(rate.svc, rate.bare);
  const groups: number[] = [];
  for (let i = 0; i < TTFB_REQUESTS; i += TTFB_GROUP) groups.push(median(ttfb.svc.slice(i, i + TTFB_GROUP)) - median(ttfb.bare.slice(i, i + TTFB_GROUP)));
  const overhead = fromRounds(groups);
  record({ name: `chat stream of ${STREAM_CHUNKS} chunks vs bare SSE (chunks/s)`, ...rateRatio, bar: 0.9, direction: "at least", unit: "×" });
  record({ name: "chat time to first byte, overhead over bare (p50)", ...overhead, bar: 1, direction: "at most", unit: "ms" });
  return [
    "",
    ...table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")),
    `chat stream: svc ${Math.round(median(rate.svc))} chunks/s vs bare ${Math.round(median(rate.bare))} (${rateRatio.value.toFixed(2)} ± ${rateRatio.noise.toFixed(2)}, median of per-round ratios) over ${STREAMS} streams of ${STREAM_CHUNKS} chunks`,
    `time to first byte: svc overhead p50 ${overhead.value.toFixed(2)} ± ${overhead.noise.toFixed(2)} ms (median of ${groups.length} groups of ${TTFB_GROUP} requests; bar ≤ 1 ms)`,
  ];
}
