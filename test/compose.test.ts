/**
 * compose.yaml: the services pulled from registries are pinned to exact releases (a floating
 * `latest`, `main` or major-only tag starts something different next month), and svc is wired to
 * Redis and Open WebUI to svc's OpenAI endpoint.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { repoRoot } from "./helpers/cli.js";

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
}
const compose = parse(readFileSync(`${repoRoot}/compose.yaml`, "utf8")) as { services: Record<string, Service> };

/** `repo:${VAR:-default}` → the default, the tag used when the variable is unset. */
const tagOf = (image: string) => /:([^/:]+)$/.exec(image.replace(/\$\{[A-Z_]+:-([^}]+)\}/g, "$1"))?.[1];

test("every image pulled from a registry has an exact release tag", () => {
  const pulled = Object.entries(compose.services).filter(([, s]) => s.image && !s.build);
  assert.ok(pulled.length >= 2, "Redis and Open WebUI");
  for (const [name, service] of pulled) {
    const tag = tagOf(service.image!);
    assert.ok(tag, `${name}: ${service.image} has no tag`);
    assert.match(tag!, /^v?\d+\.\d+\.\d+(-[a-z0-9.]+)?$/, `${name}: ${service.image} floats`);
  }
  assert.is(tagOf("ghcr.io/x/y:${TAG:-main}"), "main", "a variable's default is what gets checked");
});

test("svc uses Redis, and Open WebUI talks to svc's OpenAI endpoint", () => {
  assert.match(compose.services.svc!.environment!.SERVICE_CLUSTER_REDIS_URL!, /^redis:\/\/redis:6379/);
  assert.is(compose.services["open-webui"]!.environment!.OPENAI_API_BASE_URL, "http://svc:1416/v1");
});

test.run();
