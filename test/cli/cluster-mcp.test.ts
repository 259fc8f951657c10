import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startSvc } from "../helpers/cli.js";
import { deployTo, pipelinesDirWith, post, startInstance, stopAll } from "../helpers/cluster.js";
import { until } from "../helpers/http.js";
import { tempDir, wrapper } from "../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../helpers/redis.js";

const skip = redisSkipReason();

test(skip ? `skipped: ${skip}` : "svc mcp run with the cluster URL follows REST deploys made on another instance", async () => {
  if (skip) return;
  const redis = await startRedis();
  const rest = await startInstance({ redisUrl: redis.url });
  const mcp = await startSvc(["mcp", "run", "--host", "127.0.0.1", "--port", "0", "--stateful", "--pipelines-dir", pipelinesDirWith()], {
    env: { SERVICE_CLUSTER_REDIS_URL: redis.url, SERVICE_CLUSTER_RECONCILE_INTERVAL: "1", XDG_CACHE_HOME: tempDir("svc-cluster-cache-") },
    ms: 30_000,
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`)));
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    assert.not.ok((await names()).includes("echoer"));

    const source = wrapper(`runApi(input: { text: string }) { return "echo: " + input.text; }`, `static inputSchema = v.object({ text: v.string() });`);
    assert.is((await deployTo(rest.url, "echoer", source)).status, 200);
    await until(() => changes > 0, 15_000, "tools/list_changed after a REST deploy on another instance");
    assert.ok((await names()).includes("echoer"));
    const result = (await client.callTool({ name: "echoer", arguments: { text: "hi" } })) as { content: { text: string }[] };
    assert.is(result.content[0]!.text, "echo: hi");

    const before = changes;
    assert.is((await post(`${rest.url}/undeploy/echoer`, {})).status, 200);
    await until(() => changes > before, 15_000, "tools/list_changed after the undeploy");
    assert.not.ok((await names()).includes("echoer"));
  } finally {
    await client.close().catch(() => undefined);
    await stopAll(rest, mcp);
    await redis.stop();
  }
});

test.run();
