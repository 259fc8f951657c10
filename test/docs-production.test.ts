/**
 * docs/production.md, run: its `svc.config.yaml` and keys file start a real `svc run` with
 * `svc:auth`, its nginx block puts TLS in front (a certificate made by openssl for the page's host
 * name), and its Prometheus scrape config is followed as Prometheus follows it (scheme, path,
 * bearer token file, target) and the answer read with a parser of the exposition format.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import YAML from "yaml";
import { addKey } from "../cli/auth.js";
import { checkKeys } from "../plugins/auth/index.js";
import { repoRoot, startSvc, type RunningSvc } from "./helpers/cli.js";
import { nginxSkipReason, startNginx, stopNginx, unprivileged } from "./helpers/nginx.js";
import { tempDir } from "./helpers/pipelines.js";
import { freePort } from "./helpers/redis.js";

const PAGE = "docs/production.md";
const HOST = "svc.example.com";

/** The block marked `<!-- example: id (test/docs-production.test.ts) -->` on the page. */
function example(id: string): string {
  const lines = readFileSync(join(repoRoot, PAGE), "utf8").split("\n");
  const at = lines.indexOf(`<!-- example: ${id} (test/docs-production.test.ts) -->`);
  if (at < 0 || !lines[at + 1]?.startsWith("```")) throw new Error(`${PAGE}: no block marked as example '${id}'`);
  const end = lines.findIndex((l, i) => i > at + 1 && l === "```");
  return lines.slice(at + 2, end).join("\n") + "\n";
}

const skip = nginxSkipReason() ?? (existsSync("/usr/bin/openssl") ? null : "openssl is not installed");

const WRAPPER = `import { BasePipelineWrapper, getLastUserMessage, type ChatMessage } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  runApi(input: { text: string }) { return { echo: input.text }; }
  async *runChatCompletion(_model: string, messages: ChatMessage[]) { yield "Echo: "; yield getLastUserMessage(messages) ?? ""; }
}
`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

test("the keys file validates with svc's own schema, with the scopes the page describes", () => {
  const keys = checkKeys(YAML.parse(example("production-keys")), PAGE);
  assert.equal(
    keys.map((k) => [k.name, k.scopes, k.pipelines]),
    [
      ["web-app", ["run"], ["support_chat", "search"]],
      ["ci-deploy", ["admin"], undefined],
      ["prometheus", ["traces"], undefined],
    ],
  );
});

test(skip ? `skipped: ${skip}` : "the config behind the nginx block: TLS, keys, the loopback guard, a Prometheus scrape", async () => {
  if (skip) return;
  const dir = tempDir("svc-production-");
  const pipelines = join(dir, "pipelines");
  mkdirSync(join(pipelines, "support_chat"), { recursive: true });
  writeFileSync(join(pipelines, "support_chat", "pipeline_wrapper.ts"), WRAPPER);

  // The page's keys file, plus keys this test knows (the page's hashes are of keys nobody has).
  const keysFile = join(dir, "keys.yaml");
  writeFileSync(keysFile, example("production-keys"));
  const runKey = await addKey("test-run", { scope: "run", keysFile });
  const scrapeKey = await addKey("test-prometheus", { scope: "traces", keysFile });

  const config = example("production-config")
    .replace("port: 1416", "port: 0")
    .replace("/srv/svc/pipelines", pipelines)
    .replace("/etc/svc/keys.yaml", keysFile);
  assert.is.not(config, example("production-config"));
  writeFileSync(join(dir, "svc.config.yaml"), config);

  execFileSync("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${HOST}`, "-addext", `subjectAltName=DNS:${HOST}`, "-keyout", join(dir, "privkey.pem"), "-out", join(dir, "fullchain.pem")], { stdio: "ignore" });
  copyFileSync(join(dir, "fullchain.pem"), join(dir, "ca.pem"));
  const ca = readFileSync(join(dir, "ca.pem"));

  let svc: RunningSvc | undefined;
  let nginx: ChildProcess | undefined;
  try {
    svc = await startSvc(["run"], { cwd: dir });
    assert.match(svc.output(), /API keys required/, "svc:auth is loaded from the config file");
    assert.is(svc.url, `http://127.0.0.1:${svc.port}`, "bound to loopback");

    const port = await freePort();
    const nginxDir = join(dir, "nginx");
    mkdirSync(nginxDir);
    const nginxConfig = example("production-nginx")
      .replace("server 127.0.0.1:1416;", `server 127.0.0.1:${svc.port};`)
      .replace("listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`)
      .replace("/etc/ssl/svc/fullchain.pem", join(dir, "fullchain.pem"))
      .replace("/etc/ssl/svc/privkey.pem", join(dir, "privkey.pem"));

    /** A request to https://svc.example.com through nginx, trusting the test's certificate. */
    const https = (path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, servername: HOST, ca, path, method: options.method ?? "GET", headers: { host: HOST, ...options.headers } }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(options.body);
      });

    nginx = await startNginx(unprivileged(nginxConfig, nginxDir), nginxDir, async () => (await https("/status")).status === 200);

    const chat = (headers: Record<string, string>) =>
      https("/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ model: "support_chat", stream: true, messages: [{ role: "user", content: "hi" }] }),
      });
    const refused = await chat({});
    assert.is(refused.status, 401, "no key, no run");
    assert.is(JSON.parse(refused.body).error.code, 401);
    const streamed = await chat({ authorization: `Bearer ${runKey}` });
    assert.is(streamed.status, 200);
    assert.match(String(streamed.headers["content-type"]), /^text\/event-stream/);
    assert.match(streamed.body, /Echo: /);
    assert.match(streamed.body, /data: \[DONE\]/);

    // A page of the public origin (the chat UI) passes the loopback guard; another site does not.
    const fromPage = await chat({ authorization: `Bearer ${runKey}`, origin: `https://${HOST}` });
    assert.is(fromPage.status, 200, fromPage.body);
    const fromElsewhere = await chat({ authorization: `Bearer ${runKey}`, origin: "https://evil.example" });
    assert.is(fromElsewhere.status, 403);
    const run = await https("/support_chat/run", { method: "POST", headers: { "content-type": "application/json", "x-api-key": runKey }, body: JSON.stringify({ text: "a" }) });
    assert.is(run.status, 200, run.body);

    // The scrape, as Prometheus does it with the page's job.
    const job = (YAML.parse(example("production-prometheus")) as { scrape_configs: any[] }).scrape_configs[0];
    assert.is(job.scheme, "https");
    const tokenFile = join(dir, "svc-key");
    writeFileSync(tokenFile, `${scrapeKey}\n`, { mode: 0o600 });
    assert.is(job.bearer_token_file, "/etc/prometheus/svc-key");
    assert.equal(job.static_configs[0].targets, [`${HOST}:443`]);
    const token = readFileSync(tokenFile, "utf8").trim(); // Prometheus trims the file's content
    assert.is((await https(job.metrics_path)).status, 401, "metrics need operator access");
    const scraped = await https(job.metrics_path, { headers: { authorization: `Bearer ${token}` } });
    assert.is(scraped.status, 200);
    const families = parsePrometheusTextFormat(scraped.body) as { name: string; metrics: { labels?: Record<string, string>; value?: string }[] }[];
    const runs = families.find((f) => f.name === "svc_runs_total")!.metrics;
    const count = (transport: string) => Number(runs.find((m) => m.labels?.transport === transport && m.labels?.outcome === "succeeded")?.value ?? 0);
    assert.is(count("openai"), 2, "the two chats that were let in");
    assert.is(count("rest"), 1);
  } finally {
    await stopNginx(nginx);
    await svc?.stop();
  }
});

test.run();
