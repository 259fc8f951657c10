/**
 * @module `/run` with a feature on against the same server with it off, two servers loaded in
 * alternating rounds (so drift on a shared machine hits both alike), each figure the median of its
 * rounds: tracing and monitoring (the in-memory trace buffer and execution index, target ≥ 0.9),
 * metrics (target ≥ 0.95).
 */
import autocannon from "autocannon";

export interface Target {
  readonly port: number;
  cpu(): Promise<number>;
}

const body = JSON.stringify({ question: "What is svc?", top_k: 3 });

export interface OnOff {
  /** What is switched on, as the report names it. */
  readonly feature: string;
  /** The req/s and CPU ratios (on vs off) the feature must keep. */
  readonly bar: number;
}

export async function onOffBench({ feature, bar }: OnOff, off: Target, on: Target, rounds: number, duration: number): Promise<string[]> {
  const measure = async (t: Target) => {
    const before = await t.cpu();
    const r = await autocannon({
      url: `http://127.0.0.1:${t.port}/noop/run`,
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
      connections: 32,
      duration,
    });
    if (r.non2xx + r.errors > 0) throw new Error(`${r.non2xx + r.errors} errors under load`);
    return { rps: r.requests.average, cpu: ((await t.cpu()) - before) / r.requests.total };
  };
  const samples = { off: [] as { rps: number; cpu: number }[], on: [] as { rps: number; cpu: number }[] };
  await measure(off);
  await measure(on); // warm-up
  for (let i = 0; i < rounds; i++) {
    samples.off.push(await measure(off));
    samples.on.push(await measure(on));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rps = (k: "off" | "on") => median(samples[k].map((s) => s.rps));
  const cpu = (k: "off" | "on") => median(samples[k].map((s) => s.cpu));
  return [
    `/run with ${feature} on: ${Math.round(rps("on"))} req/s, ${cpu("on").toFixed(0)} µs CPU/req; off: ${Math.round(rps("off"))} req/s, ${cpu("off").toFixed(0)} µs CPU/req`,
    `${feature} ratio: ${(rps("on") / rps("off")).toFixed(2)} by req/s, ${(cpu("off") / cpu("on")).toFixed(2)} by CPU per request (target ≥ ${bar})`,
  ];
}
