/**
 * @module The agent card in the shape of A2A spec 0.3, for clients that ask without an
 * `A2A-Version` header (or with 0.3) while the compatibility setting is on: the primary `url`
 * and `preferredTransport`, `protocolVersion` 0.3.0, v0.3 security schemes, plus the v1.0
 * `supportedInterfaces` (as the SDK's own compat card embeds them), so either kind of client
 * finds its interface.
 */
import type { AgentCard, SecurityScheme } from "@a2a-js/sdk";

function legacyScheme(scheme: SecurityScheme): Record<string, unknown> {
  const s = scheme.scheme;
  if (s?.$case === "httpAuthSecurityScheme") return { type: "http", scheme: s.value.scheme, description: s.value.description };
  if (s?.$case === "apiKeySecurityScheme") return { type: "apiKey", in: s.value.location, name: s.value.name, description: s.value.description };
  return { type: "mutualTLS" };
}

export function legacyAgentCard(card: AgentCard): Record<string, unknown> {
  const primary = card.supportedInterfaces.find((i) => i.protocolVersion.startsWith("0.")) ?? card.supportedInterfaces[0]!;
  const result: Record<string, unknown> = {
    name: card.name,
    description: card.description,
    version: card.version,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    protocolVersion: "0.3.0",
    capabilities: { streaming: card.capabilities?.streaming ?? false, pushNotifications: card.capabilities?.pushNotifications ?? false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ id, name, description, tags, examples, inputModes, outputModes }) => ({
      id,
      name,
      description,
      tags,
      ...(examples.length ? { examples } : {}),
      ...(inputModes.length ? { inputModes } : {}),
      ...(outputModes.length ? { outputModes } : {}),
    })),
    supportedInterfaces: card.supportedInterfaces,
  };
  if (card.provider) result.provider = card.provider;
  if (card.documentationUrl) result.documentationUrl = card.documentationUrl;
  if (card.iconUrl) result.iconUrl = card.iconUrl;
  const schemes = Object.entries(card.securitySchemes);
  if (schemes.length > 0) {
    result.securitySchemes = Object.fromEntries(schemes.map(([name, scheme]) => [name, legacyScheme(scheme)]));
    result.security = card.securityRequirements.map((r) => Object.fromEntries(Object.entries(r.schemes).map(([name, list]) => [name, list.list])));
  }
  return result;
}
