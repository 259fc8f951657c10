/**
 * @module Engine benchmarks: runs per second of a 10-component no-op pipeline against calling the
 * same ten components directly (the baseline, same run), and BM25 retrieval latency over 10,000
 * documents.
 */
import * as v from "valibot";
import { Component, Document, Pipeline, output, socket } from "svc/engine";
import { InMemoryDocumentStore } from "../plugins/engine/document-store.js";

class PassThrough extends Component {
  protected inputSpecs() {
    return { value: socket(v.number()) };
  }
  protected outputSpecs() {
    return { value: output(v.number()) };
  }
  run(inputs: { value: number }) {
    return { value: inputs.value };
  }
}

const COMPONENTS = 10;

async function perSecond(ms: number, fn: () => Promise<unknown>): Promise<number> {
  const until = performance.now() + ms;
  let n = 0;
  const started = performance.now();
  while (performance.now() < until) {
    await fn();
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

export async function engineBench(): Promise<string[]> {
  const pipeline = new Pipeline();
  const direct: PassThrough[] = [];
  for (let i = 0; i < COMPONENTS; i++) {
    pipeline.addComponent(`c${i}`, new PassThrough());
    direct.push(new PassThrough());
    if (i > 0) pipeline.connect(`c${i - 1}.value`, `c${i}.value`);
  }
  await perSecond(300, () => pipeline.run({ c0: { value: 1 } })); // warm-up
  const engine = await perSecond(2000, () => pipeline.run({ c0: { value: 1 } }));
  const baseline = await perSecond(2000, async () => {
    let value = 1;
    for (const c of direct) value = ((await c.run({ value })) as { value: number }).value;
    return value;
  });

  const store = new InMemoryDocumentStore({ index: `bench-${Date.now()}` });
  const words = ["pipeline", "agent", "retrieval", "haystack", "component", "stream", "token", "model", "query", "answer", "vector", "index"];
  const docs = Array.from({ length: 10_000 }, (_, i) => new Document({ content: Array.from({ length: 40 }, (_, j) => words[(i * 7 + j * 13 + (i % 5) * j) % words.length]).join(" ") + ` doc${i}` }));
  store.write_documents(docs);
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    store.bm25_retrieval("agent retrieval pipeline answer", null, 10);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [
    `engine: 10-component no-op pipeline ${Math.round(engine)} runs/s; scheduling overhead ${((1e6 / engine - 1e6 / baseline) / COMPONENTS).toFixed(1)} µs per component run (direct calls: ${Math.round(baseline)} chains/s)`,
    `BM25 over 10,000 documents: p50 ${times[15]!.toFixed(1)} ms, p99 ${times[29]!.toFixed(1)} ms`,
  ];
}
