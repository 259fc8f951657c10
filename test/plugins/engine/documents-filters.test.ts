import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, Document } from "../../../plugins/engine/dataclasses/document.js";
import { InMemoryDocumentStore } from "../../../plugins/engine/document-store.js";
import { applyFilterPolicy, documentMatchesFilter, FilterError } from "../../../plugins/engine/filters.js";
import { groupCount, pythonRegExp } from "../../../plugins/engine/components/python-regex.js";

const DOCS = [
  new Document({ id: "1", content: "A Foo Document 1", meta: { name: "name_0", page: "100", chapter: "intro", number: 2, date: "1969-07-21T20:17:40" } }),
  new Document({ id: "2", content: "A Bar Document 2", meta: { name: "name_1", page: "123", chapter: "abstract", number: -2, date: "1972-12-11T19:54:58" } }),
  new Document({ id: "3", content: "A Foobar Document 3", meta: { name: "name_2", page: "90", chapter: "conclusion", number: -10, date: "1989-11-09T17:53:00" } }),
  new Document({ id: "4", content: "Document without meta" }),
  new Document({ id: "5", content: null, meta: { number: 100, tags: ["a", "b"], nested: { deep: { value: true } } } }),
  new Document({ id: "6", content: "Aware date", meta: { date: "2020-01-01T10:00:00+02:00", number: 2.0, flag: true } }),
];

const store = new InMemoryDocumentStore();
store.write_documents(DOCS);
const ids = (filters: Record<string, unknown>) => store.filter_documents(filters).map((d) => d.id);

test("== and != compare like Python (None for missing fields, 2 == 2.0, True == 1, deep lists)", () => {
  assert.equal(ids({ field: "meta.number", operator: "==", value: 2 }), ["1", "6"]);
  assert.equal(ids({ field: "meta.name", operator: "==", value: null }), ["4", "5", "6"]);
  assert.equal(ids({ field: "meta.number", operator: "!=", value: 2 }), ["2", "3", "4", "5"]);
  assert.equal(ids({ field: "meta.flag", operator: "==", value: 1 }), ["6"]);
  assert.equal(ids({ field: "meta.tags", operator: "==", value: ["a", "b"] }), ["5"]);
  assert.equal(ids({ field: "meta.tags", operator: "==", value: "a" }), []);
  assert.equal(ids({ field: "meta.nested.deep.value", operator: "==", value: true }), ["5"]);
  assert.equal(ids({ field: "meta.nested.missing.value", operator: "==", value: null }).length, 6);
  assert.equal(ids({ field: "content", operator: "==", value: null }), ["5"]);
  assert.equal(ids({ field: "id", operator: "==", value: "3" }), ["3"]);
  // A bare name that is not a Document field is a meta key (converted legacy filters).
  assert.equal(ids({ field: "chapter", operator: "==", value: "intro" }), ["1"]);
});

test(">, >=, <, <= order numbers; None never matches; ISO date strings compare as dates", () => {
  assert.equal(ids({ field: "meta.number", operator: ">", value: 0 }), ["1", "5", "6"]);
  assert.equal(ids({ field: "meta.number", operator: ">=", value: 2 }), ["1", "5", "6"]);
  assert.equal(ids({ field: "meta.number", operator: "<", value: 0 }), ["2", "3"]);
  assert.equal(ids({ field: "meta.number", operator: "<=", value: -2 }), ["2", "3"]);
  assert.equal(ids({ field: "meta.number", operator: ">", value: null }), []);
  assert.equal(ids({ field: "meta.date", operator: ">=", value: "1972-12-11T19:54:58" }), ["2", "3", "6"]);
  assert.equal(ids({ field: "meta.date", operator: "<", value: "1972-12-11" }), ["1"]);
  // A naive date takes the aware one's time zone: 10:00+02:00 is after 09:00 and before 11:00.
  assert.equal(ids({ field: "meta.date", operator: ">", value: "2020-01-01T09:00:00" }), ["6"]);
  assert.equal(ids({ field: "meta.date", operator: "<", value: "2020-01-01T08:30:00Z" }), ["1", "2", "3", "6"]);
  assert.equal(ids({ field: "meta.date", operator: ">", value: "2020-01-01T07:59:00Z" }), ["6"]);
  assert.equal(ids({ field: "meta.date", operator: ">", value: "March 1, 1970" }), ["2", "3", "6"]);
  assert.throws(() => ids({ field: "meta.page", operator: ">", value: "90" }), (e: Error) => e instanceof FilterError && /only comparable if they are ISO formatted dates/.test(e.message));
  assert.throws(() => ids({ field: "meta.number", operator: "<", value: [1] }), /can't be of type list/);
  assert.throws(() => ids({ field: "meta.tags", operator: ">", value: 1 }), (e: Error) => e instanceof FilterError);
});

test("in / not in need a list", () => {
  assert.equal(ids({ field: "meta.page", operator: "in", value: ["100", "123"] }), ["1", "2"]);
  assert.equal(ids({ field: "meta.page", operator: "not in", value: ["100", "123"] }), ["3", "4", "5", "6"]);
  assert.equal(ids({ field: "meta.number", operator: "in", value: [100, -10] }), ["3", "5"]);
  assert.throws(() => ids({ field: "meta.page", operator: "in", value: "100" }), /must be a `list` when using operator 'in' or 'not in'/);
});

test("AND, OR, NOT nest; malformed conditions raise FilterError", () => {
  const and = { operator: "AND", conditions: [{ field: "meta.number", operator: ">", value: 0 }, { field: "content", operator: "!=", value: null }] };
  assert.equal(ids(and), ["1", "6"]);
  const or = { operator: "OR", conditions: [{ field: "meta.chapter", operator: "==", value: "intro" }, { field: "meta.number", operator: "==", value: 100 }] };
  assert.equal(ids(or), ["1", "5"]);
  assert.equal(ids({ operator: "NOT", conditions: [or] }), ["2", "3", "4", "6"]);
  // NOT negates the conjunction of its conditions.
  assert.equal(ids({ operator: "NOT", conditions: and.conditions }), ["2", "3", "4", "5"]);
  assert.equal(ids({ operator: "AND", conditions: [or, { operator: "NOT", conditions: [{ field: "id", operator: "==", value: "5" }] }] }), ["1"]);
  assert.throws(() => ids({ operator: "XOR", conditions: [] }), /Unknown logical operator 'XOR'/);
  assert.throws(() => ids({ field: "meta.x", operator: "~", value: 1 }), /Unknown comparison operator '~'/);
  assert.throws(() => ids({ field: "meta.x", value: 1 }), /Invalid filter syntax/);
  assert.throws(() => ids({ operator: "AND", conditions: [{ field: "meta.x", value: 1 }] }), /'operator' key missing/);
  assert.throws(() => ids({ field: "meta.x", operator: "==" }), /'value' key missing/);
  assert.throws(() => ids({ operator: "AND" }), /'conditions' key missing/);
  assert.throws(() => store.filter_documents({ meta: "x" }), /Invalid filter syntax/);
  assert.throws(() => store.bm25_retrieval("document", { conditions: [] }), /Invalid filter syntax/);
  assert.is(store.filter_documents({}).length, 6);
  assert.is(store.filter_documents(null).length, 6);
});

test("bm25_retrieval applies filters on top of the content condition", () => {
  const results = store.bm25_retrieval("document", { field: "meta.number", operator: ">=", value: 2 }, 10);
  assert.equal(results.map((d) => d.id).sort(), ["1", "6"]);
});

test("ByteStreams filter on meta, data and mime_type", () => {
  const stream = ByteStream.fromString("hello", "text/html", { url: "https://example.com" });
  assert.ok(documentMatchesFilter({ field: "mime_type", operator: "==", value: "text/html" }, stream));
  assert.ok(documentMatchesFilter({ field: "meta.url", operator: "==", value: "https://example.com" }, stream));
  assert.ok(documentMatchesFilter({ field: "url", operator: "==", value: "https://example.com" }, stream));
});

test("filter policies: replace, and merge by Haystack's rules without mutating inputs", () => {
  const a = { field: "meta.type", operator: "==", value: "article" };
  const b = { field: "meta.rating", operator: ">=", value: 3 };
  const c = { field: "meta.date", operator: ">=", value: "2015-01-01" };
  assert.equal(applyFilterPolicy("replace", a, b), b);
  assert.equal(applyFilterPolicy("replace", a, null), a);
  assert.equal(applyFilterPolicy("merge", a, null), a);
  assert.equal(applyFilterPolicy("merge", null, null), null);
  assert.equal(applyFilterPolicy("merge", a, b), { operator: "AND", conditions: [a, b] });
  assert.equal(applyFilterPolicy("merge", a, { ...a, value: "blog" }), { ...a, value: "blog" });
  const logical = { operator: "AND", conditions: [a, b] };
  assert.equal(applyFilterPolicy("merge", c, logical), { operator: "AND", conditions: [a, b, c] });
  assert.equal(applyFilterPolicy("merge", logical, c), { operator: "AND", conditions: [a, b, c] });
  assert.equal(applyFilterPolicy("merge", logical, { ...b, value: 5 }), { operator: "AND", conditions: [a, { ...b, value: 5 }] });
  assert.equal(applyFilterPolicy("merge", logical, { operator: "AND", conditions: [c] }), { operator: "AND", conditions: [a, b, c] });
  const or = { operator: "OR", conditions: [c] };
  assert.equal(applyFilterPolicy("merge", logical, or), or, "different operators: the runtime filter wins");
  assert.equal(logical, { operator: "AND", conditions: [a, b] });
});

test("Python regular expressions: inline flags, named groups, Unicode \\w and \\b, lenient escapes", () => {
  assert.equal("Hello WORLD".match(pythonRegExp("(?i)world", "g")), ["WORLD"]);
  assert.equal({ ...pythonRegExp("(?P<year>\\d{4})-(?P=year)").exec("2020-2020")?.groups }, { year: "2020" });
  assert.equal("Ünïcödé wörds ok".match(pythonRegExp("\\b\\w+\\b", "g")), ["Ünïcödé", "wörds", "ok"]);
  assert.equal("café au lait".match(pythonRegExp("\\bau\\b", "g")), ["au"]);
  assert.equal("x\\-y {a} - \"q\"".match(pythonRegExp('\\-\\s\\"q\\"')), ['- "q"']);
  assert.ok(pythonRegExp("a{,2}b").test("aab"));
  assert.ok(pythonRegExp("[]a]+").test("]a"));
  assert.ok(pythonRegExp("\\Aab\\Z").test("ab") && !pythonRegExp("\\Aab\\Z").test("xab"));
  assert.ok(pythonRegExp("(?x) a  b # comment").test("ab"));
  assert.ok(pythonRegExp("(?a)\\w+").test("abc") && !pythonRegExp("(?a)^\\w+$").test("é"));
  assert.is(groupCount(pythonRegExp("(a)(?:b)(?P<c>c)")), 2);
  assert.ok(pythonRegExp("a(?#a comment)b").test("ab"));
  assert.throws(() => pythonRegExp("a(?#unterminated"), /unterminated/);
  assert.throws(() => pythonRegExp("(unclosed"), /Invalid regular expression '\(unclosed'/);
});

test.run();
