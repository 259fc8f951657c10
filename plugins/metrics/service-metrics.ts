/**
 * @module The metrics svc exports, in one prom-client registry per kernel (never the global one,
 * so two kernels in one process, or a host's own metrics, do not collide). Labels are bounded:
 * routes are patterns (`/:name/run`), never raw paths; pipelines are the deployed names.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { PipelineLimitStatus } from "svc";

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: "svc_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"], registers: [this.registry] });
  readonly requestSeconds = new Histogram({ name: "svc_http_request_duration_seconds", help: "Time from a request's arrival to the end of its answer.", labelNames: ["route", "method"], buckets: SECONDS, registers: [this.registry] });
  readonly runs = new Counter({ name: "svc_runs_total", help: "Pipeline runs by pipeline, transport and outcome (succeeded, failed, cancelled).", labelNames: ["pipeline", "transport", "outcome"], registers: [this.registry] });
  readonly runsInFlight = new Gauge({ name: "svc_runs_in_flight", help: "Pipeline runs executing now (a streamed run until its stream ends).", labelNames: ["pipeline", "transport"], registers: [this.registry] });
  readonly streamsInFlight = new Gauge({ name: "svc_streams_in_flight", help: "Streamed answers being sent now.", labelNames: ["pipeline", "transport"], registers: [this.registry] });
  readonly firstItemSeconds = new Histogram({ name: "svc_stream_first_item_seconds", help: "Time from a stream's start to its first item.", labelNames: ["pipeline", "transport"], buckets: SECONDS, registers: [this.registry] });
  readonly deploys = new Counter({ name: "svc_deploys_total", help: "Deploy changes applied, by action (deployed, undeployed).", labelNames: ["action"], registers: [this.registry] });
  readonly pipelines = new Gauge({ name: "svc_pipelines_deployed", help: "Pipelines deployed now.", registers: [this.registry] });

  constructor(limits?: () => Iterable<PipelineLimitStatus>) {
    collectDefaultMetrics({ register: this.registry });
    if (limits) this.limitMetrics(limits);
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
