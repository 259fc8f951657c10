/**
 * @module Operator access's own setting: the bearer token of the operator views (`/traces`,
 * `/executions`, `/metrics`, the dashboard). Not a kernel setting plugins see: the kernel reads it
 * with its own table at boot (owner `svc:operator-access`) and hands it to OperatorAccess only.
 * `SERVICE_TRACING_TOKEN`, its name before it guarded more than traces, is still accepted.
 */
import { setting } from "../setting-field.js";
import type { SettingValues } from "../setting-field.js";
import { optionalText } from "../settings-schema.js";

export const operatorAccessSettings = {
  operatorToken: setting(optionalText(), {
    env: "SERVICE_OPERATOR_TOKEN",
    aliases: ["SERVICE_TRACING_TOKEN"],
    default: undefined,
    help: "Operator bearer token for the operator views (GET /traces, /executions, /metrics, the dashboard); besides the local credential on a loopback bind, the only one otherwise.",
  }),
};

export type OperatorAccessSettings = SettingValues<typeof operatorAccessSettings>;
