/**
 * @module The probes a supervisor polls (container HEALTHCHECK, Kubernetes, a load balancer):
 * `GET /healthz` answers 200 while the process can answer at all (liveness); `GET /readyz` answers
 * 200 when every readiness check passes and 503 with the spec's error body and the failing checks
 * otherwise (readiness: route traffic here or not). Both are public, like `/status`, and name no
 * pipeline, key or path.
 */
import * as v from "valibot";
import type { HttpApp } from "./http/app.js";
import { errorBody } from "./http/send.js";
import type { Readiness } from "./readiness.js";

const CheckResultSchema = v.object({
  ready: v.boolean(),
  message: v.optional(v.string()),
});

const HealthResponse = v.object({ status: v.pipe(v.literal("Up!"), v.description("The process answers requests.")) });

const ReadyResponse = v.object({
  status: v.pipe(v.literal("Ready"), v.description("Every readiness check passed: this instance takes traffic.")),
  checks: v.pipe(v.record(v.string(), CheckResultSchema), v.description("Each readiness check by name (startup, shutdown, deploy_state, and any a plugin added).")),
});

const tags = ["status"];

export function registerHealthRoutes(http: HttpApp, readiness: Readiness): void {
  http.route("GET", "/healthz", () => ({ status: "Up!" }), {
    docs: { operationId: "healthz", summary: "Liveness: the process answers (200)", tags, response: HealthResponse },
  });

  http.route(
    "GET",
    "/readyz",
    async (c) => {
      const report = await readiness.report();
      c.res.setHeader("cache-control", "no-store");
      if (report.ready) return { status: "Ready", checks: report.checks };
      const failing = Object.entries(report.checks)
        .filter(([, r]) => !r.ready)
        .map(([name, r]) => `${name}: ${r.message ?? "not ready"}`);
      c.send(503, { ...errorBody(503, `Not ready: ${failing.join("; ")}`), checks: report.checks });
      return undefined;
    },
    {
      docs: {
        operationId: "readyz",
        summary: "Readiness: 200 when startup deploys are done, the cluster store answers and no shutdown is draining; 503 (error body with `checks`) otherwise",
        tags,
        response: ReadyResponse,
      },
    },
  );
}
