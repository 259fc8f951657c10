/**
 * @module The sandboxed Jinja2 module: rendering with Jinja2's output and whitespace rules, the
 * added filters, variable discovery (jinja2.meta's equivalent), error messages, and escape
 * attempts that must never reach JS internals.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage } from "../../../plugins/engine/dataclasses/chat-message.js";
import { Secret } from "../../../plugins/engine/dataclasses/secret.js";
import { compileTemplate, renderTemplate as render, templateVariables, TemplateError } from "../../../plugins/engine/jinja.js";

function throwsTemplateError(fn: () => unknown, pattern: RegExp): void {
  try {
    fn();
  } catch (e) {
    assert.instance(e, TemplateError);
    assert.match((e as Error).message, pattern);
    return;
  }
  assert.unreachable(`expected a TemplateError matching ${pattern}`);
}

test("renders variables, loops and conditions", () => {
  assert.is(render("Hi {{ name }}!", { name: "Ada" }), "Hi Ada!");
  assert.is(render("{% for d in docs %}{{ loop.index }}. {{ d.content }}\n{% endfor %}", { docs: [{ content: "a" }, { content: "b" }] }), "1. a\n2. b\n");
  assert.is(render("{% if n > 1 %}many{% elif n == 1 %}one{% else %}none{% endif %}", { n: 1 }), "one");
  assert.is(render("{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}", { d: { a: 1, b: 2 } }), "a=1;b=2;");
  assert.is(render("{% set ns = namespace(n=0) %}{% for i in range(4) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}"), "6");
  assert.is(render("{% macro greet(who, p='!') %}Hi {{ who }}{{ p }}{% endmacro %}{{ greet('Bo') }}"), "Hi Bo!");
});

test("prints values as Jinja2 (Python) does", () => {
  assert.is(render("{{ a }}|{{ b }}|{{ c }}|{{ d }}|{{ e }}", { a: null, b: true, c: [1, "x", null], d: { k: false }, e: 2.5 }), "None|True|[1, 'x', None]|{'k': False}|2.5");
  assert.is(render("{{ missing }}|{{ 1.0 }}|{{ 'a' ~ none ~ 1 }}|{{ [1, 2] == [1, 2] }}"), "|1.0|aNone1|True");
});

test("whitespace follows Jinja2's defaults: no trim_blocks or lstrip_blocks, one trailing newline dropped", () => {
  assert.is(render("a\n{% if true %}\n  b\n{% endif %}\nc\n"), "a\n\n  b\n\nc");
  assert.is(render("a\n  {%- if true -%}\n  b\n  {%- endif %}"), "ab");
  assert.is(render("x\r\ny\r\n"), "x\ny");
});

test("filters: join, default, tojson, upper, truncate, map and more", () => {
  assert.is(render("{{ xs|join(', ') }}", { xs: ["a", "b", 1] }), "a, b, 1");
  assert.is(render("{{ missing|default('dflt') }}|{{ ''|default('e', true) }}|{{ x|d('n') }}", { x: "set" }), "dflt|e|set");
  assert.is(render("{{ d|tojson }}", { d: { b: 1, a: ["é", "<'>"] } }), '{"a": ["\\u00e9", "\\u003c\\u0027\\u003e"], "b": 1}');
  assert.is(render("{{ d|tojson(indent=2) }}", { d: { a: 1 } }), '{\n  "a": 1\n}');
  assert.is(render("{{ s|upper }}|{{ s|lower }}|{{ s|capitalize }}|{{ none|upper }}", { s: "hELLo" }), "HELLO|hello|Hello|NONE");
  assert.is(render("{{ s|truncate(9) }}|{{ s|truncate(9, true) }}|{{ s|truncate(30) }}", { s: "hello wonderful world" }), "hello...|hello ...|hello wonderful world");
  assert.is(render("{{ xs|map('upper')|join }}|{{ ds|map(attribute='n')|join(',') }}", { xs: ["a", "b"], ds: [{ n: 1 }, { n: 2 }] }), "AB|1,2");
  assert.is(render("{{ xs|length }}|{{ xs|first }}|{{ xs|last }}|{{ 'ab'|list }}|{{ 3.45|round(1) }}|{{ 2.5|round }}|{{ 2.1|round(method='ceil') }}|{{ 'a b c'|wordcount }}", { xs: [3, 4] }), "2|3|4|['a', 'b']|3.5|2.0|3.0|3");
  assert.is(render("{{ missing|upper }}|{{ missing|join(',') }}|{{ missing|length }}"), "||0");
  assert.is(render("{{ 'x'|trim }}{{ ' y '|trim }}|{{ [3, 1, 2]|sort|join }}|{{ 'a-b'|replace('-', '+') }}"), "xy|123|a+b");
});

test("iterates strings and undefined like Jinja2", () => {
  assert.is(render("{% for c in s %}[{{ c }}]{% endfor %}", { s: "ab" }), "[a][b]");
  assert.is(render("{% for d in documents %}x{% else %}none{% endfor %}", { documents: "" }), "none");
  assert.is(render("{% for d in documents %}x{% endfor %}"), "");
});

test("class instances expose their data and getters, with snake_case aliases", () => {
  const m = ChatMessage.fromAssistant("hi", { toolCalls: [{ tool_name: "t", arguments: { a: 1 } }] });
  assert.is(render("{{ m.role }}: {{ m.text }} / {{ m.tool_calls[0].tool_name }} / {{ m.toolCalls|length }}", { m }), "assistant: hi / t / 1");
});

test("templateVariables lists undeclared variables in first-use order", () => {
  const t = `{% set greeting = "hi" %}{{ greeting }} {{ user }}
{% for d in documents if d.score > min_score %}{{ loop.index }}{{ d.content }}{{ sep }}{% endfor %}
{% macro show(x, y=fallback) %}{{ x }}{{ y }}{{ inner }}{% endmacro %}{{ show(query) }}{{ none }}{{ true }}
{{ items|join(joiner) }}{{ range(3)|length }}{{ a.b.c }}{{ other['k'] }}{{ late }}{% set late = 1 %}`;
  assert.equal(templateVariables(t), ["user", "documents", "min_score", "sep", "fallback", "inner", "query", "items", "joiner", "a", "other", "late"]);
  assert.equal(templateVariables("{% for a, b in pairs %}{{ a }}{{ b }}{% endfor %}{{ a }}"), ["pairs", "a"]);
  assert.equal(compileTemplate("{{ x }}").variables, ["x"]);
});

test("errors name the template problem", () => {
  throwsTemplateError(() => compileTemplate("{% if x %}open"), /syntax error: unexpected end of template .*not closed.*"\{% if x %\}open"/);
  throwsTemplateError(() => compileTemplate("{{ x|no_such_filter }}"), /no filter named 'no_such_filter'/);
  throwsTemplateError(() => compileTemplate("{% for x in y %}{% endif %}"), /syntax error: .*endif/);
  throwsTemplateError(() => render("{{ x + 1 }}", { x: null }), /Template rendering failed: .*null.*\(template: "\{\{ x \+ 1 \}\}"\)/);
  // A custom filter name is accepted when the caller supplies it.
  assert.is(render("{{ 2|twice }}", {}, { filters: { twice: (x) => (x as number) * 2 } }), "4");
});

test("compiled templates are cached", () => {
  assert.is(compileTemplate("{{ cached }}"), compileTemplate("{{ cached }}"));
});

test("renderNative returns a one-expression template's value, originals included", () => {
  const docs = [{ id: 1 }];
  assert.is(compileTemplate("{{ docs }}").renderNative({ docs }), docs);
  assert.is(compileTemplate("{{ n + 1 }}").renderNative({ n: 1 }), 2);
  assert.is(compileTemplate("n={{ n }}").renderNative({ n: 1 }), "n=1");
});

const ESCAPES = [
  "{{ ''.constructor.constructor('globalThis.__pwned = 1')() }}",
  "{{ ''['constructor']['constructor']('globalThis.__pwned = 1')() }}",
  "{{ x.constructor.constructor('globalThis.__pwned = 1')() }}",
  "{{ x.__proto__.constructor.constructor('globalThis.__pwned = 1')() }}",
  "{{ x['__proto__']['constructor'] }}",
  "{{ [].constructor.constructor('globalThis.__pwned = 1')() }}",
  "{{ range.constructor('globalThis.__pwned = 1')() }}",
  "{{ namespace.constructor('globalThis.__pwned = 1')() }}",
  "{{ 'a'.upper.constructor('globalThis.__pwned = 1')() }}",
  "{{ fn('globalThis.__pwned = 1')() }}",
  "{{ obj.run('globalThis.__pwned = 1') }}",
  "{{ obj.constructor.prototype }}",
  "{{ range }}{{ fn }}{{ obj.run }}",
  "{{ secret.token }}{{ secret }}{{ obj._hidden }}",
  "{% set ns = namespace() %}{% set ns.__proto__ = 'x' %}{{ ns.__proto__ }}",
  "{{ dict(__proto__=1) }}{{ {'__proto__': {'polluted': 1}}|tojson }}",
  "{{ x|map(attribute='constructor')|list }}",
];

test("sandbox: escape attempts fail or render harmlessly, never execute", () => {
  class Service {
    _hidden = "private";
    run(code: string) {
      return new Function(code)();
    }
  }
  const vars = { x: {}, fn: Function, obj: new Service(), secret: Secret.fromToken("sk-secret-token") };
  for (const template of ESCAPES) {
    let out = "";
    try {
      out = render(template, vars);
    } catch (e) {
      assert.instance(e, TemplateError, template);
    }
    assert.not.match(out, /function\s*\(|=>|native code|sk-secret|private|\[object/, `${template} rendered ${out}`);
    assert.is((globalThis as Record<string, unknown>).__pwned, undefined, template);
    assert.is(({} as Record<string, unknown>).polluted, undefined, template);
  }
});

test("sandbox: CPU and memory are bounded", () => {
  throwsTemplateError(() => render("{% for i in range(1000000) %}{% endfor %}"), /Range too big/);
  throwsTemplateError(() => render("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"), /more than \d+ steps/);
});

test.run();
