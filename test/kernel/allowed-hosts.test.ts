import { test } from "uvu";
import * as assert from "uvu/assert";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import authPlugin from "../../plugins/auth/index.js";
import { addKey } from "../../cli/auth.js";
import { rawRequest } from "../helpers/http.js";
import { startPipelineKernel, tempDir, wrapper } from "../helpers/pipelines.js";

const WRAPPER = wrapper("runApi() { return 'pwned'; }");

/** What a DNS-rebinding page sends: its own name as Host and Origin, a text/plain POST (no preflight). */
const rebindingDeploy = (url: string, name: string) =>
  rawRequest(`${url}/deploy_files`, {
    method: "POST",
    headers: { host: `rebind.attacker.example:${new URL(url).port}`, origin: `http://rebind.attacker.example:${new URL(url).port}`, "content-type": "text/plain" },
    body: JSON.stringify({ name, files: { "pipeline_wrapper.ts": WRAPPER }, save_files: false }),
  });

/** A non-loopback address of this machine, when it has one. */
function machineAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) if (!info.internal && info.family === "IPv4") return info.address;
  return undefined;
}

test("bound to 0.0.0.0 without auth: a rebinding page's deploy is refused (403) before any route, nothing is deployed; a warning is logged at startup", async () => {
  const k = await startPipelineKernel({ settings: { host: "0.0.0.0" } });
  try {
    const res = await rebindingDeploy(k.url, "rebound");
    assert.is(res.status, 403);
    assert.equal(JSON.parse(res.body).error, {
      message: `Host 'rebind.attacker.example:${new URL(k.url).port}' is not allowed: it is not a loopback name, this machine's address or a name in SERVICE_ALLOWED_HOSTS.`,
      type: "permission_error",
      code: 403,
    });
    assert.is((await fetch(`${k.url}/status`).then((r) => r.json()) as any).pipelines.length, 0, "nothing deployed");
    assert.is((await rawRequest(`${k.url}/nope`, { headers: { host: "rebind.attacker.example" } })).status, 403, "checked before routing (not a 404)");
    assert.is((await rawRequest(`${k.url}/status`, { headers: { host: `localhost:${new URL(k.url).port}` } })).status, 200, "loopback names pass");
    const own = machineAddress();
    if (own) assert.is((await rawRequest(`${k.url}/status`, { headers: { host: `${own}:${new URL(k.url).port}` } })).status, 200, "the machine's own address passes");
    assert.ok(k.logs.some((l) => /WARN.*bound to 0\.0\.0\.0, beyond loopback, and no API keys are required/.test(l)), k.logs.join("\n"));
  } finally {
    await k.close();
  }
});

test("SERVICE_ALLOWED_HOSTS: exact names and domains pass; * allows any Host", async () => {
  const listed = await startPipelineKernel({ settings: { host: "0.0.0.0", allowedHosts: ["svc.example.com", ".corp.example"] } });
  try {
    for (const host of ["svc.example.com", "SVC.example.com:8080", "corp.example", "a.b.corp.example"]) {
      assert.is((await rawRequest(`${listed.url}/status`, { headers: { host } })).status, 200, host);
    }
    for (const host of ["example.com", "evilcorp.example", "svc.example.com.attacker.example"]) {
      assert.is((await rawRequest(`${listed.url}/status`, { headers: { host } })).status, 403, host);
    }
  } finally {
    await listed.close();
  }
  const any = await startPipelineKernel({ settings: { host: "0.0.0.0", allowedHosts: ["*"] } });
  try {
    assert.is((await rawRequest(`${any.url}/status`, { headers: { host: "anything.example" } })).status, 200);
  } finally {
    await any.close();
  }
});

test("a loopback server behind a proxy: a listed Host and its Origin pass", async () => {
  const k = await startPipelineKernel({ settings: { allowedHosts: ["svc.example.com"] } });
  try {
    const res = await rawRequest(`${k.url}/status`, { headers: { host: "svc.example.com", origin: "https://svc.example.com" } });
    assert.is(res.status, 200);
    assert.is((await rawRequest(`${k.url}/status`, { headers: { host: "other.example.com" } })).status, 403);
  } finally {
    await k.close();
  }
});

test("no startup warning when bound publicly with svc:auth", async () => {
  const file = join(tempDir("svc-auth-"), "keys.yaml");
  await addKey("ops", { scope: "admin", keysFile: file });
  const k = await startPipelineKernel({ settings: { host: "0.0.0.0", authKeysFile: file }, plugins: [authPlugin()] });
  try {
    assert.not.ok(k.logs.some((l) => /no API keys are required/.test(l)));
  } finally {
    await k.close();
  }
});

test.run();
