/**
 * @module Deploy durations from the kernel's own `svc.deploy` / `svc.undeploy` spans: a tracer on
 * the `trace` hook that times those two span names and hands every other span the no-op tracer's
 * span, so a run pays one name check for it. Spans are where the kernel already measures a deploy
 * from request to outcome, failures included (the deploy hook's events fire only on success).
 */
import { performance } from "node:perf_hooks";
import { NOOP_TRACER, type Span, type TagValue, type Tags, type Tracer } from "svc/plugin";

export type DeployAction = "deploy" | "undeploy";
export type DeployOutcome = "succeeded" | "failed";
export type DeployObserver = (action: DeployAction, kind: string, outcome: DeployOutcome, seconds: number) => void;

const ACTIONS: Readonly<Record<string, DeployAction>> = { "svc.deploy": "deploy", "svc.undeploy": "undeploy" };

class DeploySpan implements Span {
  private readonly started = performance.now();
  private ended = false;

  constructor(
    readonly name: string,
    private readonly action: DeployAction,
    private kind: string,
    private readonly observe: DeployObserver,
  ) {}

  setTag(key: string, value: TagValue): Span {
    if (key === "svc.deploy.kind" && typeof value === "string") this.kind = value;
    return this;
  }

  setTags(tags: Tags): Span {
    for (const [key, value] of Object.entries(tags)) this.setTag(key, value);
    return this;
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.observe(this.action, this.kind, error === undefined ? "succeeded" : "failed", (performance.now() - this.started) / 1000);
  }
}

export function deployTimer(observe: DeployObserver): Tracer {
  return {
    startSpan(name, tags, parent) {
      const action = ACTIONS[name];
      if (action === undefined) return NOOP_TRACER.startSpan(name, tags, parent);
      const kind = tags?.["svc.deploy.kind"];
      return new DeploySpan(name, action, typeof kind === "string" ? kind : "", observe);
    },
  };
}
