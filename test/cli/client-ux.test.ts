import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { runSvc, startSvc } from "../helpers/cli.js";
import { pipelinesDirWith, taggedWrapper } from "../helpers/cluster.js";
import { tempDir } from "../helpers/pipelines.js";

const env = () => ({ XDG_CACHE_HOME: tempDir("svc-ux-cache-") });

test("a port in use is reported before anything is deployed, with --port suggested and no raw EADDRINUSE", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const dir = pipelinesDirWith({ greet: taggedWrapper("hi") });
    const result = await runSvc(["run", "--host", "127.0.0.1", "--port", String(port), "--pipelines-dir", dir], { env: env() });
    assert.is(result.code, 1);
    assert.match(result.stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use .*--port <n>`));
    assert.not.match(result.stderr, /EADDRINUSE|deployed \d+\/\d+/);
  } finally {
    blocker.close();
  }
});

test("client commands take --url; a 409 suggests --overwrite; a refused large upload shows the 413 on a line of its own", async () => {
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", tempDir()], {
    env: { ...env(), SERVICE_MAX_UPLOAD_BYTES: "1000000" },
  });
  try {
    const folder = join(tempDir(), "greet");
    mkdirSync(folder);
    writeFileSync(join(folder, "pipeline_wrapper.ts"), taggedWrapper("hi"));
    // The working directory's settings point elsewhere: only --url finds the server.
    const elsewhere = { ...env(), SERVICE_PORT: "1" };
    const deploy = await runSvc(["pipeline", "deploy-files", folder, "--name", "greet", "--url", svc.url], { env: elsewhere });
    assert.is(deploy.code, 0, deploy.stderr);
    const again = await runSvc(["pipeline", "deploy-files", folder, "--name", "greet", "--url", svc.url], { env: elsewhere });
    assert.is(again.code, 1);
    assert.match(again.stderr, /Server error \(409\): Pipeline 'greet' already exists\. Add --overwrite \(-o\) to replace it\./);
    const status = await runSvc(["status", "--url", svc.url], { env: elsewhere });
    assert.match(status.stdout, /greet/);
    const bad = await runSvc(["status", "--url", "not a url"], { env: elsewhere });
    assert.is(bad.code, 1);
    assert.match(bad.stderr, /--url must be an http\(s\) URL/);

    writeFileSync(join(folder, "data.bin"), Buffer.alloc(40 * 1024 * 1024));
    for (let i = 0; i < 4; i++) {
      const big = await runSvc(["pipeline", "deploy-files", folder, "--name", "big", "--url", svc.url], { env: elsewhere });
      assert.is(big.code, 1);
      assert.match(big.stderr, /(^|\n)(\x1b\[\d+m)?✘(\x1b\[\d+m)? Server error \(413\): The upload exceeds the limit of 1000000 bytes\./, big.stderr);
    }
  } finally {
    await svc.stop();
  }
});

test.run();
