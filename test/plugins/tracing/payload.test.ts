import { test } from "uvu";
import * as assert from "uvu/assert";
import { isSensitiveKey, payloadTag, shapeOf } from "../../../plugins/tracing/index.js";
import { sharedPayloadTags } from "../../../plugins/tracing/payload.js";

test("shapes by default: types and sizes, never values", () => {
  class Custom {
    length = 7;
  }
  assert.equal(payloadTag({ value: 3 }, false), ["value=int"]);
  assert.equal(payloadTag(42, false), ["value=int"]);
  assert.equal(payloadTag({ s: "secret text", f: 1.5, b: true, n: null, l: [1, 2], d: { a: 1 }, c: new Custom(), m: new Map() }, false), [
    "b=bool",
    "c=Custom(7)",
    "d=dict(1)",
    "f=float",
    "l=list(2)",
    "m=dict(0)",
    "n=null",
    "s=str(11)",
  ]);
  assert.is(shapeOf(new Date()), "Date");
  assert.is(shapeOf(Buffer.from("abc")), "Buffer(3)");
});

test("sensitive key names: words like token, password, secret, authorization, api key; not any key with 'key'", () => {
  for (const key of ["api_key", "apiKey", "OPENAI_API_KEY", "x-api-key", "token", "access_token", "refreshToken", "password", "db_passwd", "client_secret", "Authorization", "auth", "credentials", "cookie", "private_key", "apikey"]) {
    assert.ok(isSensitiveKey(key), key);
  }
  for (const key of ["key", "keyword", "keys", "key_points", "sort_key", "monkey", "max_tokens", "tokenizer", "author", "question", "passage"]) {
    assert.not.ok(isSensitiveKey(key), key);
  }
});

test("values when opted in: text for scalars, sorted-key JSON for structures, secrets redacted at any depth", () => {
  const tag = payloadTag(
    {
      question: "What is svc?",
      top_k: 3,
      flag: false,
      none: null,
      headers: { Authorization: "Bearer abc", accept: "json" },
      list: [{ token: "t" }, 2],
      set: new Set(["b", "a"]),
      api_key: "sk-1",
      keyword: "cats",
    },
    true,
  );
  assert.equal(tag, [
    "api_key=[redacted]",
    "flag=false",
    'headers={"Authorization":"[redacted]","accept":"json"}',
    "keyword=cats",
    'list=[{"token":"[redacted]"},2]',
    "none=null",
    "question=What is svc?",
    'set=["a","b"]',
    "top_k=3",
  ]);
  assert.ok(!tag.join("").includes("sk-1") && !tag.join("").includes("Bearer abc"));
});

test("values are bounded: a huge payload costs its first few hundred characters", () => {
  const [entry] = payloadTag({ big: { text: "x".repeat(1_000_000), more: Array.from({ length: 100_000 }, (_, i) => i) } }, true);
  assert.ok(entry!.length <= 510, String(entry!.length));
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = circular;
  assert.equal(payloadTag({ c: circular }, true), ['c={"a":1,"self":"[circular]"}']);
});

test("run spans share one frozen shape list per distinct list; value lists stay their own", () => {
  const sharedPayloadTag = sharedPayloadTags();
  const a = sharedPayloadTag({ question: "What is svc?", top_k: 3 }, false);
  const b = sharedPayloadTag({ top_k: 5, question: "Who wrote it" }, false);
  assert.equal(a, ["question=str(12)", "top_k=int"]);
  assert.ok(a === b, "equal shapes: the same array");
  assert.ok(Object.isFrozen(a));
  // Joined with a line break, these two lists read the same; they must not share.
  const split = sharedPayloadTag({ "x=int\ny": "a" }, false);
  const two = sharedPayloadTag({ x: 1, y: "a" }, false);
  assert.equal(split, ["x=int\ny=str(1)"]);
  assert.equal(two, ["x=int", "y=str(1)"]);
  const values = sharedPayloadTag({ q: "same" }, true);
  assert.not.ok(values === sharedPayloadTag({ q: "same" }, true));
  assert.not.ok(Object.isFrozen(values));
});

test("an input like the last one gets its list; any change of key, order or shape gets its own", () => {
  const tag = sharedPayloadTags();
  const base = tag({ q: "abc", n: 1, l: [1, 2], f: null }, false);
  assert.ok(tag({ q: "xyz", n: 7, l: [3, 4], f: undefined }, false) === base);
  assert.equal(tag({ q: "abcd", n: 1, l: [1, 2], f: null }, false), ["f=null", "l=list(2)", "n=int", "q=str(4)"]);
  assert.equal(tag({ q: "abc", n: 1.5, l: [1, 2], f: null }, false), ["f=null", "l=list(2)", "n=float", "q=str(3)"]);
  assert.equal(tag({ q: "abc", n: 1, l: [1], f: null }, false), ["f=null", "l=list(1)", "n=int", "q=str(3)"]);
  assert.equal(tag({ q: "abc", n: 1, l: [1, 2], f: false }, false), ["f=bool", "l=list(2)", "n=int", "q=str(3)"]);
  assert.equal(tag({ q: "abc", n: 1, l: [1, 2] }, false), ["l=list(2)", "n=int", "q=str(3)"]);
  assert.equal(tag({ q: "abc", n: 1, l: [1, 2], f: null, g: 1 }, false), ["f=null", "g=int", "l=list(2)", "n=int", "q=str(3)"]);
  assert.equal(tag({ q: "abc", n: 1, m: [1, 2], f: null }, false), ["f=null", "m=list(2)", "n=int", "q=str(3)"]);
  // Values whose shape needs a closer look (objects) are shaped every time.
  assert.equal(tag({ d: { a: 1 } }, false), ["d=dict(1)"]);
  assert.equal(tag({ d: { a: 1, b: 2 } }, false), ["d=dict(2)"]);
  assert.equal(tag("text", false), ["value=str(4)"]);
  assert.equal(tag({ q: "xyz", n: 7, l: [3, 4], f: undefined }, false), ["f=null", "l=list(2)", "n=int", "q=str(3)"]);
});

test.run();
