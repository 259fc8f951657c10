import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkYamlEntries } from "svc/internal";
import { parseYamlText } from "svc/plugin";
import enginePlugin from "../../plugins/engine/index.js";
import { openaiPlugin } from "../../plugins/openai/index.js";
import { withPipelineKernel, type PipelineKernel } from "../helpers/pipelines.js";

/** A multipart body with one small file and `repeats` repeated `purpose` fields (2.5 MB for 40,000). */
function repeatedFields(repeats: number, fileField = "file"): { body: Buffer; type: string } {
  const boundary = "svc-bound-x";
  const part = `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n`;
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`;
  const body = Buffer.from(part.repeat(repeats) + file + `--${boundary}--\r\n`);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** Sends `hostile` and, while it is under way, a `/healthz`: both must be answered. */
async function withBystander(k: PipelineKernel, hostile: () => Promise<Response>): Promise<{ status: number; body: any }> {
  const attack = hostile();
  const bystander = await fetch(`${k.url}/healthz`);
  assert.is(bystander.status, 200, "another request is answered meanwhile");
  const res = await attack;
  return { status: res.status, body: await res.json() };
}

const upload = (k: PipelineKernel, path: string, form: { body: Buffer; type: string }) => () =>
  fetch(`${k.url}${path}`, { method: "POST", headers: { "content-type": form.type }, body: new Uint8Array(form.body) });

test("40,000 repeated multipart fields: 413 under the default part limit, for /v1/files and /deploy-files", () =>
  withPipelineKernel(
    async (k) => {
      const form = repeatedFields(40_000);
      assert.ok(form.body.length > 2_400_000);
      const files = await withBystander(k, upload(k, "/v1/files", form));
      assert.is(files.status, 413);
      assert.equal(files.body.error, { message: "Too many parts: at most 1000 fields and files (SERVICE_MAX_MULTIPART_PARTS).", type: "invalid_request_error", code: 413 });
      const deploy = await withBystander(k, upload(k, "/deploy-files", repeatedFields(40_000, "files")));
      assert.is(deploy.status, 413);
      assert.match(deploy.body.error.message, /Too many parts/);
    },
    { plugins: [openaiPlugin()] },
  ));

test("a raised part limit takes 40,000 repeated fields (each value kept, the last one used)", () =>
  withPipelineKernel(
    async (k) => {
      const answer = await withBystander(k, upload(k, "/v1/files", repeatedFields(40_000)));
      assert.is(answer.status, 200, JSON.stringify(answer.body));
      assert.is(answer.body.purpose, "user_data");
      assert.is(answer.body.bytes, 5);
    },
    { plugins: [openaiPlugin()], settings: { maxMultipartParts: 50_000 } },
  ));

const yamlWithKeys = (n: number, extra = "") => {
  let text = "components: {}\nconnections: []\ninputs:\n  q: x.y\nmetadata:\n";
  for (let i = 0; i < n; i++) text += `  k${i}: ${i}\n`;
  return text + extra;
};

const deployYaml = (k: PipelineKernel, source: string) => () =>
  fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "big", source_code: source, save_file: false }) });

test("a YAML pipeline with 30,000 keys: 413 under the default entry limit; another request is answered meanwhile", () =>
  withPipelineKernel(
    async (k) => {
      const source = yamlWithKeys(30_000);
      assert.ok(source.length > 400_000);
      const answer = await withBystander(k, deployYaml(k, source));
      assert.is(answer.status, 413);
      assert.equal(answer.body.error, { message: "The YAML has more than 10000 keys and list items (SERVICE_MAX_YAML_ENTRIES).", type: "invalid_request_error", code: 413 });
    },
    { plugins: [enginePlugin()] },
  ));

test("duplicate keys are found in a large YAML (raised limit) with their line; a valid large map parses", () =>
  withPipelineKernel(
    async (k) => {
      const repeated = await withBystander(k, deployYaml(k, yamlWithKeys(30_000, "  k7: again\n")));
      assert.is(repeated.status, 422, "a YAML that cannot load is a 422, as any other YAML load failure (Hayhooks)");
      assert.match(repeated.body.error.message, /Invalid YAML: map keys must be unique: 'k7' is repeated at line 30006, column 3/);
      const data = parseYamlText(yamlWithKeys(30_000), { maxEntries: 40_000 }) as { metadata: Record<string, number> };
      assert.is(Object.keys(data.metadata).length, 30_000);
      assert.is(data.metadata.k29999, 29_999);
    },
    { plugins: [enginePlugin()], settings: { maxYamlEntries: 40_000 } },
  ));

test("parseYamlText: entries of block maps, lists and flow collections count; syntax errors and nested duplicates are reported", () => {
  const text = "a: 1\nb:\n  - x\n  - y: 2\nc: {d: 1, e: [1, 2, 3]}\n";
  assert.equal(parseYamlText(text, { maxEntries: 12 }), { a: 1, b: ["x", { y: 2 }], c: { d: 1, e: [1, 2, 3] } });
  assert.throws(() => checkYamlEntries(text, 5), /more than 5 keys and list items/);
  assert.throws(() => parseYamlText("a: 1\nb:\n  c: 1\n  c: 2\n"), /'c' is repeated at line 4, column 3/);
  assert.throws(() => parseYamlText("a: [1, 2\n"), /^Invalid YAML: /);
  assert.equal(parseYamlText("a:\n  c: 1\nb:\n  c: 1\n"), { a: { c: 1 }, b: { c: 1 } }, "the same key in two maps is fine");
});

test.run();
