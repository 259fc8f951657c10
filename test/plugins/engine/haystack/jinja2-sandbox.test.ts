/**
 * @module Port of Haystack's test/utils/test_jinja2_sandbox.py (HaystackSandboxedEnvironment). Haystack
 * blocks reaching into or calling Python module objects that leak into a template; svc's templates
 * never see a JS function or a module's callables at all (variables are copied into the
 * interpreter's values, functions dropped), so the same templates fail with a TemplateError where
 * Jinja2 raises its SecurityError, and nothing is called. A Node module (`node:child_process`,
 * `node:os`) stands in for Python's `os`.
 */
import * as childProcess from "node:child_process";
import * as os from "node:os";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { renderTemplate, TemplateError } from "../../../../plugins/engine/jinja.js";

/** Renders, expecting a TemplateError and no call of `spy`. */
function refused(template: string, variables: Record<string, unknown>, filters = {}): void {
  assert.throws(() => renderTemplate(template, variables, { filters }), (e: Error) => e instanceof TemplateError);
}

let calls = 0;
const spy = () => ++calls;
test.before.each(() => void (calls = 0));
test.after.each(() => assert.is(calls, 0, "nothing in the template may call a host function"));

test("test_blocks_module_attribute_access", () => {
  refused("{{ mod.execSync('echo pwned') }}", { mod: childProcess });
  refused("{{ mod.platform() }}", { mod: os });
  refused("{{ mod.run('x') }}", { mod: { run: spy } });
});

test("test_blocks_calling_dangerous_module_callable", () => {
  refused("{{ fn('echo pwned') }}", { fn: childProcess.execSync });
  refused("{{ fn('x') }}", { fn: spy });
});

test("test_blocks_calling_module_object", () => {
  refused("{{ mod() }}", { mod: childProcess });
});

test("svc: a custom filter that returns a module or a function does not open a way out", () => {
  refused("{{ (name | leak).execSync('id') }}", { name: "hi" }, { leak: () => childProcess });
  refused("{{ (name | leak)('id') }}", { name: "hi" }, { leak: () => spy });
});

test("test_allows_builtin_string_methods", () => {
  assert.is(renderTemplate("{{ name.upper() }}", { name: "hi" }), "HI");
});

test("test_allows_custom_filter", () => {
  assert.is(renderTemplate("{{ name | shout }}", { name: "hi" }, { filters: { shout: (v) => String(v).toUpperCase() } }), "HI");
});

test("test_allows_object_data_access", () => {
  assert.is(renderTemplate("{{ doc['content'] }}", { doc: { content: "hello" } }), "hello");
});

test.run();
