/** Content types by extension (mime-types, with our few choices) and extensions by content type. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { extensionOf, mimeTypeOf } from "svc/plugin";

test("mimeTypeOf: mime-db's types, ours for TypeScript, YAML and JSON Lines, octet-stream when unknown", () => {
  assert.is(mimeTypeOf("report.PDF"), "application/pdf");
  assert.is(mimeTypeOf("notes.md"), "text/markdown");
  assert.is(mimeTypeOf("/tmp/a/photo.jpeg"), "image/jpeg");
  assert.is(mimeTypeOf("table.xlsx"), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  assert.is(mimeTypeOf("wrapper.ts"), "text/plain");
  assert.is(mimeTypeOf("pipeline.yml"), "application/yaml");
  assert.is(mimeTypeOf("rows.jsonl"), "application/jsonl");
  assert.is(mimeTypeOf("data.unknownext"), "application/octet-stream");
  assert.is(mimeTypeOf("no-extension"), "application/octet-stream");
});

test("extensionOf: the usual extension, parameters ignored, .bin when unknown", () => {
  assert.is(extensionOf("application/pdf"), ".pdf");
  assert.is(extensionOf("text/plain; charset=utf-8"), ".txt");
  assert.is(extensionOf("IMAGE/PNG"), ".png");
  assert.is(extensionOf("application/yaml"), ".yaml");
  assert.is(extensionOf("application/x-nothing-known"), ".bin");
  assert.is(extensionOf(""), ".bin");
});

test.run();
