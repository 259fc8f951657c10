/**
 * @module The metrics svc exports, in one prom-client registry per kernel (never the global one,
 * so two kernels in one process, or a host's own metrics, do not collide). Labels are bounded:
 * routes are patterns (`/:name/run`), never raw paths; pipelines are the deployed names. The
 * series every request touches are counted in cells (cells.ts, series.ts) and handed over at
 * scrape time.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { Cells } from "./cells.js";
import { HistogramCells } from "./histogram-cells.js";
import type { McpSessionCountsLike } from "./mcp-sessions.js";
import { RouteSeriesTable, RunSeriesTable } from "./series.js";
import type { PipelineLimitStatus } from "svc/limits";

/** What the metrics read when scraped, from other plugins (each may be absent). */
export interface MetricSources {
  /** The MCP session counts (svc:mcp). */
  readonly mcpSessions?: () => McpSessionCountsLike | undefined;
  /** The run limits' state per pipeline (svc:limits). */
  readonly limits?: () => Iterable<PipelineLimitStatus>;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class ServiceMetrics {
  readonly registry = new Registry();
  /** Requests answered, by route, method, status. */
  readonly requestCells = new Cells();
  /** Runs finished, by pipeline, transport, outcome. */
  readonly runCells = new Cells();
  /** Runs executing, by pipeline, transport. */
  readonly inFlightCells = new Cells();
  readonly requests = new Counter({ name: "svc_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"], registers: [this.registry], collect: this.requestCells.countsInto() });
  /** Request durations, by route and method (copied into `requestSeconds` when scraped). */
  readonly requestSecondsCells = new HistogramCells(SECONDS);
  readonly requestSeconds = new Histogram({ name: "svc_http_request_duration_seconds", help: "Time from a request's arrival to the end of its answer.", labelNames: ["route", "method"], buckets: SECONDS, registers: [this.registry], collect: this.requestSecondsCells.into() });
  readonly runs = new Counter({ name: "svc_runs_total", help: "Pipeline runs by pipeline, transport and outcome (succeeded, failed, cancelled).", labelNames: ["pipeline", "transport", "outcome"], registers: [this.registry], collect: this.runCells.countsInto() });
  readonly runsInFlight = new Gauge({ name: "svc_runs_in_flight", help: "Pipeline runs executing now (a streamed run until its stream ends).", labelNames: ["pipeline", "transport"], registers: [this.registry], collect: this.inFlightCells.levelsInto() });
  readonly streamsInFlight = new Gauge({ name: "svc_streams_in_flight", help: "Streamed answers being sent now.", labelNames: ["pipeline", "transport"], registers: [this.registry] });
  readonly firstItemSeconds = new Histogram({ name: "svc_stream_first_item_seconds", help: "Time from a stream's start to its first item.", labelNames: ["pipeline", "transport"], buckets: SECONDS, registers: [this.registry] });
  /** What each run and each answered request update. */
  readonly runSeries = new RunSeriesTable(this.inFlightCells, this.runCells);
  readonly routeSeries = new RouteSeriesTable(this.requestCells, this.requestSecondsCells);
  readonly deploys = new Counter({ name: "svc_deploys_total", help: "Deploys and undeploys by action (deploy, undeploy), kind (files, yaml, …) and outcome (succeeded, failed).", labelNames: ["action", "kind", "outcome"], registers: [this.registry] });
  readonly deploySeconds = new Histogram({ name: "svc_deploy_duration_seconds", help: "Time a deploy or undeploy took, from request to outcome.", labelNames: ["action", "kind", "outcome"], buckets: SECONDS, registers: [this.registry] });
  readonly pipelines = new Gauge({ name: "svc_pipelines_deployed", help: "Pipelines deployed now.", registers: [this.registry] });

  readonly mcpSessions: Gauge;
  readonly mcpSessionsOpened: Counter;

  /** @param sources what is read at scrape time (nothing is done per request for it) */
  constructor(sources: MetricSources = {}) {
    collectDefaultMetrics({ register: this.registry });
    const mcp = sources.mcpSessions ?? (() => undefined);
    // prom-client calls `collect` on a metric just before writing it out.
    this.mcpSessions = new Gauge({
      name: "svc_mcp_sessions_open",
      help: "MCP sessions open now, by transport (streamable-http with sessions, sse).",
      labelNames: ["transport"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [transport, n] of Object.entries(mcp()?.open() ?? {})) this.labels(transport).set(n);
      },
    });
    this.mcpSessionsOpened = new Counter({
      name: "svc_mcp_sessions_opened_total",
      help: "MCP sessions opened since the start, by transport.",
      labelNames: ["transport"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [transport, n] of Object.entries(mcp()?.opened() ?? {})) this.labels(transport).inc(n);
      },
    });
    if (sources.limits) this.limitMetrics(sources.limits);
  }

  /** The run limits (svc:limits), read at scrape time. */
  private limitMetrics(limits: () => Iterable<PipelineLimitStatus>): void {
    const registers = [this.registry];
    const labelNames = ["pipeline"];
    const gauge = (name: string, help: string, value: (s: PipelineLimitStatus) => number) =>
      new Gauge({ name, help, labelNames, registers, collect() {
        this.reset();
        for (const s of limits()) this.labels(s.pipeline).set(value(s));
      } });
    const counter = (name: string, help: string, value: (s: PipelineLimitStatus) => number) =>
      new Counter({ name, help, labelNames, registers, collect() {
        this.reset();
        for (const s of limits()) this.labels(s.pipeline).inc(value(s));
      } });
    gauge("svc_limit_max_concurrency", "A pipeline's max_concurrency (0: none).", (s) => s.maxConcurrency);
    gauge("svc_limit_queued", "Calls waiting for a run slot of their pipeline now.", (s) => s.queued);
    counter("svc_limit_rejected_total", "Calls refused with 429: the pipeline's run slots and queue were full.", (s) => s.rejected);
    counter("svc_limit_timeouts_total", "Runs stopped by their pipeline's timeout_seconds (answered 504).", (s) => s.timedOut);
  }
}
