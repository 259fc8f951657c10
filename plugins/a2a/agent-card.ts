/**
 * @module A pipeline's agent card: its name, the wrapper's description, one default skill, the
 * JSON-RPC interface URL (under the base URL clients reach) and, when the `run` scope refuses an
 * anonymous caller (svc:auth is on), the API key schemes it accepts. A wrapper overrides fields
 * with a static `a2aCard` (name, description, version, skills, documentation and icon URLs,
 * provider), validated when the pipeline is deployed.
 */
import * as v from "valibot";
import type { AgentCard, AgentInterface, AgentSkill, SecurityScheme } from "@a2a-js/sdk";
import { A2A_PROTOCOL_VERSION } from "@a2a-js/sdk";
import { formatIssues } from "svc/plugin";

const text = (max: number) => v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(max, `must be at most ${max} characters`));
const strings = v.array(v.pipe(v.string(), v.maxLength(1000)));

const SkillOverride = v.strictObject({
  id: text(200),
  name: v.optional(text(200)),
  description: v.optional(text(10_000)),
  tags: v.optional(strings),
  examples: v.optional(strings),
  inputModes: v.optional(strings),
  outputModes: v.optional(strings),
});

/** What a wrapper's `static a2aCard` may set. */
export const CardOverride = v.strictObject({
  name: v.optional(text(200)),
  description: v.optional(text(10_000)),
  version: v.optional(text(100)),
  documentationUrl: v.optional(v.pipe(v.string(), v.url("must be a URL"))),
  iconUrl: v.optional(v.pipe(v.string(), v.url("must be a URL"))),
  provider: v.optional(v.strictObject({ organization: text(200), url: v.pipe(v.string(), v.url("must be a URL")) })),
  skills: v.optional(v.pipe(v.array(SkillOverride), v.minLength(1, "must list at least one skill"))),
});
export type CardOverride = v.InferOutput<typeof CardOverride>;

/** The wrapper's `static a2aCard`, checked; an Error naming the bad field otherwise. */
export function cardOverrideOf(value: unknown): CardOverride {
  if (value === undefined) return {};
  const parsed = v.safeParse(CardOverride, value);
  if (!parsed.success) throw new Error(`a2aCard is invalid: ${formatIssues(parsed.issues)}`);
  return parsed.output;
}

/** The interface's protocol version for v0.3 clients (the compat layer routes them by it). */
export const LEGACY_VERSION = "0.3";
const TEXT = ["text/plain"];

export interface CardOptions {
  /** The agent's pipeline name (its path segment). */
  readonly name: string;
  readonly description: string;
  readonly override: CardOverride;
  /** Where clients reach the A2A server, without a trailing slash. */
  readonly baseUrl: string;
  /** Advertise the v0.3 interface too. */
  readonly legacy: boolean;
  /** The caller needs an API key. */
  readonly secured: boolean;
  /** Push notification configs are accepted. */
  readonly pushNotifications: boolean;
}

export function agentCard(options: CardOptions): AgentCard {
  const { override, name } = options;
  const cardName = override.name ?? name;
  const description = override.description ?? (options.description && options.description !== name ? options.description : `svc pipeline '${name}'`);
  const url = `${options.baseUrl}/${encodeURIComponent(name)}/`;
  const interfaces: AgentInterface[] = [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }];
  if (options.legacy) interfaces.push({ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: LEGACY_VERSION });
  const skills: AgentSkill[] = (override.skills ?? [{ id: name, tags: ["svc"] }]).map((skill) => ({
    id: skill.id,
    name: skill.name ?? cardName,
    description: skill.description ?? description,
    tags: skill.tags ?? [],
    examples: skill.examples ?? [],
    inputModes: skill.inputModes ?? [],
    outputModes: skill.outputModes ?? [],
    securityRequirements: [],
  }));
  return {
    name: cardName,
    description,
    supportedInterfaces: interfaces,
    provider: override.provider,
    version: override.version ?? "1.0.0",
    documentationUrl: override.documentationUrl,
    iconUrl: override.iconUrl,
    capabilities: { streaming: true, pushNotifications: options.pushNotifications, extensions: [], extendedAgentCard: false },
    securitySchemes: options.secured ? SECURITY_SCHEMES : {},
    // Either scheme will do: one requirement each.
    securityRequirements: options.secured ? Object.keys(SECURITY_SCHEMES).map((scheme) => ({ schemes: { [scheme]: { list: [] } } })) : [],
    defaultInputModes: TEXT,
    defaultOutputModes: TEXT,
    skills,
    signatures: [],
  };
}

/** svc:auth's two ways of presenting a key. */
const SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  bearer: { scheme: { $case: "httpAuthSecurityScheme", value: { scheme: "Bearer", bearerFormat: "", description: "An svc API key as a bearer token" } } },
  apiKey: { scheme: { $case: "apiKeySecurityScheme", value: { location: "header", name: "x-api-key", description: "An svc API key in the x-api-key header" } } },
};
