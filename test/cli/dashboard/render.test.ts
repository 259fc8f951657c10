import { test } from "uvu";
import * as assert from "uvu/assert";
import { applyAction } from "../../../cli/dashboard/keys.js";
import { render, type Size } from "../../../cli/dashboard/render.js";
import { plain, textWidth, toAnsi, wrap } from "../../../cli/dashboard/styled-line.js";
import { applyProblem, applySnapshot, initialState, type Problem, type ViewState } from "../../../cli/dashboard/view-state.js";
import { sample, snapshotOf, spanOf, traceOf } from "./trace-fixtures.js";

const ctx = { url: "http://localhost:1416", intervalSec: 2, credentialFile: "/home/u/.cache/svc/dashboard-token" };
const loaded = () => applySnapshot(initialState(), snapshotOf(sample(), { hasMore: true }), Date.UTC(2026, 0, 1, 12, 0, 0));
const screen = (state: ViewState, size: Size = { columns: 160, rows: 30 }) => render(state, size, ctx).lines.map(plain);

test("the screen shows header, filters, sample statistics, columns, traces and the keys", () => {
  const lines = screen(loaded());
  assert.match(lines[0]!, /svc traces · http:\/\/localhost:1416 · sort newest · every 2s · updated \d\d:\d\d:\d\d/);
  assert.match(lines[1]!, /entrypoint all {2}kind all {2}state all {2}search —/);
  assert.match(lines[2]!, /5 shown of 5 \(server has older\) · ok 3 · failed 1 · running 1 · streaming 1 · p50 200ms · p95 3\.00s · max 3\.00s · slow components 1/);
  assert.match(lines[3]!, /STATE\s+KIND\s+ENTRYPOINT\s+DURATION\s+SPANS\s+STARTED\s+ERROR · TRACE/);
  assert.match(lines[4]!, /^▸ ok\s+run\s+chat\s+50ms\s+1\s+\d\d:\d\d:\d\d aaaa1111/);
  assert.match(lines[5]!, /slow: llm 2\.40s {2}bbbb2222/);
  assert.match(lines[6]!, /failed .*bad input {2}cccc3333/);
  assert.match(lines[7]!, /running\s+openai/);
  assert.match(lines[8]!, /ok\s+deploy\s+rag/);
  assert.match(lines.at(-2)!, /^▶ trace ok · 50ms · id aaaa1111 · chat/, "the detail line of the selected trace");
  assert.match(lines.at(-1)!, /s sort .* \/ search .* c clear {2}q quit/);
});

test("at 80 columns a failed row shows its error before the trace id, and the detail line shows the selection's in full", () => {
  const error = "db.internal:5432 refused the connection";
  const failing = traceOf({
    id: "ffff6666ffff6666ffff6666ffff6666",
    start: 1_700_000_009_000,
    entrypoint: "rag",
    tags: { "svc.success": "false" },
    children: [spanOf("f-c1", "haystack.component.run", { duration: 12, tags: { "haystack.component.name": "retriever", "haystack.error.type": "ConnectionError", "haystack.error.message": error } })],
  });
  let state = applySnapshot(initialState(), snapshotOf([failing, ...sample()]), 1);
  let lines = screen(state, { columns: 80, rows: 24 });
  assert.is(lines.length, 24);
  assert.match(lines[4]!, /^▸ failed\s+run\s+rag .* db\.internal:5432/);
  assert.match(lines[22]!, new RegExp(`^▶ trace failed: ${error} · `));
  state = applyAction(applyAction(applyAction(state, "expand", 17), "down", 17), "down", 17);
  lines = screen(state, { columns: 80, rows: 24 });
  assert.match(lines[22]!, /^▶ span failed: ConnectionError: db\.internal:5432 refused the connection · /);
  assert.not.match(lines[22]!, /haystack\.error\.message=/, "the error is not repeated among the tags");
});

test("an expanded trace shows its span tree with durations, tags and the slowest component marked", () => {
  const state = applyAction(applyAction(loaded(), "down", 20), "toggle", 20);
  const lines = screen(state);
  assert.match(lines[5]!, /^▾ ok/);
  assert.match(lines[6]!, /^ {2}svc\.pipeline\.run {2}3\.00s {2}svc\.pipeline\.name=rag svc\.success=true/);
  assert.match(lines[7]!, /^ {2}└─ haystack\.pipeline\.run {2}2\.90s/);
  assert.match(lines[8]!, /^ {5}├─ haystack\.component\.run {2}400ms {2}haystack\.component\.name=retriever/);
  assert.match(lines[9]!, /^ {5}└─ haystack\.component\.run {2}2\.40s {2}⚠ slowest component/);
  // A collapsed span says how many spans it hides.
  const collapsed = ["down", "down", "collapse"].reduce((s, a) => applyAction(s, a as never, 20), state);
  assert.match(screen(collapsed)[7]!, /└─ \[\+2\] haystack\.pipeline\.run/);
});

test("the selected row is drawn in reverse video across the width", () => {
  const out = render(loaded(), { columns: 100, rows: 20 }, ctx);
  const ansi = out.lines.map((l) => toAnsi(l, 100, false));
  assert.ok(ansi[4]!.startsWith("\x1b[7m") && ansi[4]!.endsWith("\x1b[27m"));
  assert.not.ok(ansi[5]!.includes("\x1b[7m"));
  assert.not.ok(ansi[4]!.includes("\x1b[32m"), "no colour when colour is off");
  assert.ok(toAnsi(out.lines[4]!, 100, true).includes("\x1b[32m"), "state colours when on");
});

test("every size is filled exactly: one line per row, none wider than the terminal", () => {
  let state = applyAction(applyAction(loaded(), "down", 20), "toggle", 20);
  state = applySnapshot(state, snapshotOf([...sample(), ...Array.from({ length: 40 }, (_, i) => traceOf({ id: `extra-${i}`, start: i, entrypoint: "長い名前のパイプライン".repeat(3) }))]), 1);
  for (const size of [{ columns: 200, rows: 50 }, { columns: 80, rows: 24 }, { columns: 41, rows: 9 }, { columns: 20, rows: 6 }, { columns: 10, rows: 3 }, { columns: 1, rows: 1 }]) {
    for (const s of [state, applyProblem(state, { kind: "unreachable", detail: "Connection refused: nothing listens there." })]) {
      const lines = render(s, size, ctx).lines;
      assert.is(lines.length, size.rows, `${size.columns}x${size.rows}`);
      for (const l of lines) assert.ok(textWidth(plain(l)) <= size.columns, `${size.columns}x${size.rows}: ${plain(l)}`);
      for (const l of lines) assert.ok(textWidth(toAnsi(l, size.columns, true).replace(/\x1b\[[0-9;]*m/g, "")) <= size.columns);
    }
  }
  assert.equal(screen(loaded(), { columns: 30, rows: 4 }), ["Terminal too small", "q quits", "", ""]);
});

test("scrolling follows the selection to the end of a long list", () => {
  const many = applySnapshot(initialState(), snapshotOf(Array.from({ length: 60 }, (_, i) => traceOf({ id: `t${String(i).padStart(2, "0")}`, start: 1000 - i }))), 1);
  const state = applyAction(many, "last", 10);
  const out = render(state, { columns: 80, rows: 15 }, ctx);
  const lines = out.lines.map(plain);
  assert.match(lines[12]!, /t59/, "the last list row, above the detail line");
  assert.is(out.scroll, 51);
  assert.match(lines[4]!, /t51/);
});

test("text from the server cannot reach the terminal as control sequences", () => {
  const evil = traceOf({ id: "evil", entrypoint: "x\x1b[2Jy", tags: { "svc.error.type": "E", "svc.error.message": "line1\nline2\x1b]0;title\x07" }, children: [spanOf("s", "name\x1b[31m", { tags: { "k\x1b": "v\x9b1m" } })] });
  const state = applyAction(applyAction(applySnapshot(initialState(), snapshotOf([evil]), 1), "toggle", 10), "down", 10);
  const ansi = render(state, { columns: 200, rows: 12 }, ctx).lines.map((l) => toAnsi(l, 200, true));
  const visible = ansi.join("\n").replace(/\x1b\[[0-9;]*m/g, "");
  assert.not.ok(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(visible), JSON.stringify(visible));
  assert.match(visible, /line1 line2\?\]0;title\?/);
});

test("empty lists say why: waiting, nothing yet, cleared, or filtered out", () => {
  assert.match(screen(initialState())[4]!, /Waiting for the first snapshot/);
  const none = applySnapshot(initialState(), snapshotOf([]), 1);
  assert.match(screen(none)[4]!, /No traces yet/);
  assert.match(screen(applyAction(loaded(), "clear", 10))[4]!, /List cleared/);
  assert.match(screen(applyAction(loaded(), "clear", 10)).at(-1)!, /Cleared 5 traces from this view \(the server keeps them\)/);
  const filtered = { ...loaded(), search: "zzz" };
  assert.match(screen(filtered)[4]!, /No trace matches the filters and search \(Esc resets them\)/);
});

test("401, 403, unreachable and missing-API screens say what happened and what to do", () => {
  const show = (problem: Problem, url = ctx.url, credentialFile: string | null = ctx.credentialFile) =>
    render(applyProblem(loaded(), problem), { columns: 100, rows: 20 }, { ...ctx, url, credentialFile: credentialFile ?? undefined }).lines.map((l) => plain(l).trim()).join(" ").replace(/\s+/g, " "); // wrapped paragraphs read as one line
  const noFile = show({ kind: "unauthorized", detail: "missing operator credential", credential: "none" });
  assert.match(noFile, /401 Not authorized: GET \/traces at http:\/\/localhost:1416 needs an operator credential/);
  assert.match(noFile, /No credential found in \/home\/u\/\.cache\/svc\/dashboard-token/);
  assert.match(noFile, /SERVICE_DASHBOARD_TOKEN/);
  assert.match(noFile, /Server said: missing operator credential/);
  assert.not.match(noFile, /aaaa1111/, "the list is replaced by the screen");
  const refused = render(applyProblem(loaded(), { kind: "unauthorized", detail: "", credential: "none" }), { columns: 100, rows: 20 }, {
    ...ctx,
    credentialRefused: "Refusing the operator credential /x/svc/dashboard-token: its mode is 644, expected 600 (chmod 600 /x/svc/dashboard-token).",
  });
  assert.match(refused.lines.map(plain).join(" "), /Refusing the operator credential \/x\/svc\/dashboard-token: its mode is 644/);
  const remote = show({ kind: "unauthorized", detail: "", credential: "none" }, "http://traces.example:1416", null);
  assert.match(remote, /read only for the hosts localhost, 127\.0\.0\.1 and ::1/);
  assert.match(remote, /For traces\.example, set SERVICE_DASHBOARD_TOKEN/);
  assert.match(show({ kind: "forbidden", detail: "wrong", credential: "explicit" }), /403 Forbidden[\s\S]*SERVICE_DASHBOARD_TOKEN does not match the server's SERVICE_OPERATOR_TOKEN/);
  assert.match(show({ kind: "forbidden", detail: "", credential: "credential-file" }), /The token in \/home\/u\/\.cache\/svc\/dashboard-token is not this server's/);
  const down = show({ kind: "unreachable", detail: "Connection refused: nothing listens there." });
  assert.match(down, /Cannot reach svc at http:\/\/localhost:1416[\s\S]*Connection refused[\s\S]*Retrying every 2s/);
  assert.match(show({ kind: "not-mounted", detail: "" }), /No trace API at http:\/\/localhost:1416\/traces[\s\S]*--without-tracing/);
});

test("wrap breaks text at spaces and cuts words longer than the width", () => {
  assert.equal(wrap("the quick brown fox", 10), ["the quick", "brown fox"]);
  assert.equal(wrap("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
  assert.equal(wrap("", 5), []);
});

test.run();
