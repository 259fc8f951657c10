/**
 * @module MCP `tools/call` per second for the no-op pipeline against `POST /noop/run` for the same
 * pipeline on the same server, in alternating rounds (stateless Streamable HTTP: a fresh SDK
 * `Server` and transport per request, answered as SSE). Bar: ≥ 0.6×.
 */
import autocannon from "autocannon";
import { ratioOfRounds, record } from "./bars.js";

const body = JSON.stringify({ question: "What is svc?", top_k: 3 });
const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "noop", arguments: JSON.parse(body) } });

function load(port: number, path: string, payload: string, headers: Record<string, string>, duration: number): Promise<autocannon.Result> {
  return autocannon({ url: `http://127.0.0.1:${port}${path}`, method: "POST", body: payload, headers, connections: 32, duration });
}

/** `cpu()` reads the server process's CPU time (µs): per request it is steadier than req/s on a shared machine. */
export async function mcpBench(port: number, cpu: () => Promise<number>, rounds: number, duration: number): Promise<string[]> {
  const json = { "content-type": "application/json" };
  const mcp = { ...json, accept: "application/json, text/event-stream" };
  const check = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: mcp, body: call });
  const text = await check.text();
  if (check.status !== 200 || !text.includes("What is svc?")) throw new Error(`tools/call failed: ${check.status} ${text}`);
  const measure = async (path: string, payload: string, headers: Record<string, string>) => {
    const before = await cpu();
    const r = await load(port, path, payload, headers, duration);
    if (r.non2xx + r.errors > 0) throw new Error(`${path}: ${r.non2xx + r.errors} errors under load`);
    return { rps: r.requests.average, cpu: ((await cpu()) - before) / r.requests.total };
  };
  const run: { rps: number; cpu: number }[] = [];
  const tool: { rps: number; cpu: number }[] = [];
  await load(port, "/mcp", call, mcp, 1); // warm-up
  for (let i = 0; i < rounds; i++) {
    run.push(await measure("/noop/run", body, json));
    tool.push(await measure("/mcp", call, mcp));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [toolRps, runRps] = [median(tool.map((t) => t.rps)), median(run.map((r) => r.rps))];
  const [toolCpu, runCpu] = [median(tool.map((t) => t.cpu)), median(run.map((r) => r.cpu))];
  const ratio = ratioOfRounds(tool.map((t) => t.rps), run.map((r) => r.rps));
  record({ name: "MCP tools/call vs /run (req/s)", ...ratio, bar: 0.6, direction: "at least", unit: "×" });
  return [
    `MCP tools/call (no-op pipeline, stateless): ${Math.round(toolRps)} req/s, ${toolCpu.toFixed(0)} µs CPU/req vs POST /noop/run ${Math.round(runRps)} req/s, ${runCpu.toFixed(0)} µs CPU/req`,
    `MCP ratio: ${ratio.value.toFixed(2)} ± ${ratio.noise.toFixed(2)} by req/s (median of per-round ratios), ${(runCpu / toolCpu).toFixed(2)} by CPU per request (bar ≥ 0.6)`,
  ];
}
