import { test } from "uvu";
import * as assert from "uvu/assert";
import { newRequestId } from "../../kernel/http/request-id.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("request ids are distinct version-4 UUIDs, across refills of the random pool", () => {
  const seen = new Set<string>();
  // 1,000 ids draw 16,000 bytes: the 4 KiB pool is refilled three times.
  for (let i = 0; i < 1000; i++) {
    const id = newRequestId();
    assert.match(id, UUID_V4);
    seen.add(id);
  }
  assert.is(seen.size, 1000);
});

test("every hex digit and every variant appear (the bytes are random, not a fixed pattern)", () => {
  const digits = new Set<string>();
  const variants = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const id = newRequestId();
    for (const ch of id.replace(/-/g, "")) digits.add(ch);
    variants.add(id[19]!);
  }
  assert.is(digits.size, 16);
  assert.equal([...variants].sort(), ["8", "9", "a", "b"]);
});

test.run();
