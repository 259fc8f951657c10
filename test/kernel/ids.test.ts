import { test } from "uvu";
import * as assert from "uvu/assert";
import { newId, randomHex, randomUuid } from "svc/plugin";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("random UUIDs (request ids) are distinct version-4 UUIDs, across refills of the random pool", () => {
  const seen = new Set<string>();
  // 10,000 ids draw 160,000 bytes: the 64 KiB pool is refilled twice.
  for (let i = 0; i < 10_000; i++) {
    const id = randomUuid();
    assert.match(id, UUID_V4);
    seen.add(id);
  }
  assert.is(seen.size, 10_000);
});

test("every hex digit and every variant appear (the bytes are random, not a fixed pattern)", () => {
  const digits = new Set<string>();
  const variants = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const id = randomUuid();
    for (const ch of id.replace(/-/g, "")) digits.add(ch);
    variants.add(id[19]!);
  }
  assert.is(digits.size, 16);
  assert.equal([...variants].sort(), ["8", "9", "a", "b"]);
});

test("hex ids and prefixed ids: the length asked for, distinct, one pool", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 600; i++) {
    const hex = randomHex(8);
    assert.match(hex, /^[0-9a-f]{16}$/);
    const id = newId("resp_");
    assert.match(id, /^resp_[0-9a-f]{32}$/);
    seen.add(hex).add(id);
  }
  assert.is(seen.size, 1200);
  assert.match(newId("file-", 12), /^file-[0-9a-f]{24}$/);
  assert.match(newId("modèle-", 4), /^modèle-[0-9a-f]{8}$/, "a prefix that is not ASCII is kept as text");
  assert.match(newId("x".repeat(300), 4), /^x{300}[0-9a-f]{8}$/);
  assert.throws(() => randomHex(0), RangeError);
  assert.throws(() => newId("a", 65), RangeError);
});

test("each byte is written as its own two digits: all 256 pairs appear at byte positions, and only those", () => {
  const pairs = new Set<string>();
  for (let i = 0; i < 400 && pairs.size < 256; i++) {
    const hex = randomHex(64);
    for (let at = 0; at < hex.length; at += 2) pairs.add(hex.slice(at, at + 2));
    // A UUID's groups start at odd offsets of the text: its digits are the same pairs.
    for (const group of randomUuid().split("-")) for (let at = 0; at < group.length; at += 2) assert.match(group.slice(at, at + 2), /^[0-9a-f]{2}$/);
  }
  assert.is(pairs.size, 256);
  for (const pair of pairs) assert.match(pair, /^[0-9a-f]{2}$/);
});

test.run();
