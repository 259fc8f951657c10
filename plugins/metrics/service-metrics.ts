/**
 * @module The metrics svc exports, in one prom-client registry per kernel (never the global one,
 * so two kernels in one process, or a host's own metrics, do not collide). Labels are bounded:
 * routes are patterns (`/:name/run`), never raw paths; pipelines are the deployed names. The
 * series every request touches are counted in cells (cells.ts, series.ts) and handed over at
 * scrape time.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { Cells } from "./cells.js";
import type { McpSessionCountsLike } from "./mcp-sessions.js";
import { RouteSeriesTable, RunSeriesTable } from "./series.js";

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
  readonly requestSeconds = new Histogram({ name: "svc_http_request_duration_seconds", help: "Time from a request's arrival to the end of its answer.", labelNames: ["route", "method"], buckets: SECONDS, registers: [this.registry] });
  readonly runs = new Counter({ name: "svc_runs_total", help: "Pipeline runs by pipeline, transport and outcome (succeeded, failed, cancelled).", labelNames: ["pipeline", "transport", "outcome"], registers: [this.registry], collect: this.runCells.countsInto() });
  readonly runsInFlight = new Gauge({ name: "svc_runs_in_flight", help: "Pipeline runs executing now (before a streamed answer starts).", labelNames: ["pipeline", "transport"], registers: [this.registry], collect: this.inFlightCells.levelsInto() });
  readonly streamsInFlight = new Gauge({ name: "svc_streams_in_flight", help: "Streamed answers being sent now.", labelNames: ["pipeline", "transport"], registers: [this.registry] });
  readonly firstItemSeconds = new Histogram({ name: "svc_stream_first_item_seconds", help: "Time from a stream's start to its first item.", labelNames: ["pipeline", "transport"], buckets: SECONDS, registers: [this.registry] });
  /** What each run and each answered request update. */
  readonly runSeries = new RunSeriesTable(this.inFlightCells, this.runCells);
  readonly routeSeries = new RouteSeriesTable(this.requestCells, this.requestSeconds);
  readonly deploys = new Counter({ name: "svc_deploys_total", help: "Deploys and undeploys by action (deploy, undeploy), kind (files, yaml, …) and outcome (succeeded, failed).", labelNames: ["action", "kind", "outcome"], registers: [this.registry] });
  readonly deploySeconds = new Histogram({ name: "svc_deploy_duration_seconds", help: "Time a deploy or undeploy took, from request to outcome.", labelNames: ["action", "kind", "outcome"], buckets: SECONDS, registers: [this.registry] });
  readonly pipelines = new Gauge({ name: "svc_pipelines_deployed", help: "Pipelines deployed now.", registers: [this.registry] });

  readonly mcpSessions: Gauge;
  readonly mcpSessionsOpened: Counter;

  /** @param mcp the MCP session counts, read at scrape time (nothing is done per request for them) */
  constructor(mcp: () => McpSessionCountsLike | undefined = () => undefined) {
    collectDefaultMetrics({ register: this.registry });
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
  }
}
