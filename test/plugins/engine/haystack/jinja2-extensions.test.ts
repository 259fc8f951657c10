/**
 * @module Port of Haystack's test/utils/test_jinja2_extensions.py (the `{% now %}` tag), with the
 * clock fixed at 1970-01-01 00:00:00 UTC as Haystack's tests patch `arrow.now`. Expected values are
 * what arrow prints for that instant. Skipped: test_init_fails_without_arrow (a Python import check).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { clock, haystackNow } from "../../../../plugins/engine/jinja-now.js";
import { compileTemplate } from "../../../../plugins/engine/jinja.js";

const real = clock.now;
test.before.each(() => void (clock.now = () => new Date(Date.UTC(1970, 0, 1))));
test.after.each(() => void (clock.now = real));

const render = (t: string) => compileTemplate(t, [], { now: true }).render();
const throws = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: Error) => pattern.test(e.message));

test("test_valid_datetime", () => assert.is(haystackNow("UTC", "+", "hours=2", "%Y-%m-%d %H:%M:%S").length, 19));
test("test_parse_valid_expression", () => assert.is(render("{% now 'UTC' + 'hours=2', '%Y-%m-%d %H:%M:%S' %}"), "1970-01-01 02:00:00"));
test("test_get_datetime_no_offset", () => assert.is(haystackNow("UTC", null, null, null), "1970-01-01 00:00:00"));
test("test_get_datetime_with_offset_add", () => assert.is(haystackNow("UTC", "+", "hours=1", null), "1970-01-01 01:00:00"));
test("test_get_datetime_with_offset_subtract", () => assert.is(haystackNow("UTC", "-", "days=1", null), "1969-12-31 00:00:00"));
test("test_get_datetime_with_offset_subtract_days_hours", () => assert.is(haystackNow("UTC", "-", "days=1, hours=2", null), "1969-12-30 22:00:00"));
test("test_get_datetime_with_custom_format", () => assert.is(haystackNow("UTC", null, null, "%d-%m-%Y"), "01-01-1970"));
test("test_get_datetime_new_york_timezone", () => assert.is(render("{% now 'America/New_York' %}"), "1969-12-31 19:00:00"));
test("test_parse_no_operator", () => assert.is(render("{% now 'UTC' %}"), "1970-01-01 00:00:00"));
test("test_parse_with_add", () => assert.is(render("{% now 'UTC' + 'hours=2' %}"), "1970-01-01 02:00:00"));
test("test_parse_with_subtract", () => assert.is(render("{% now 'UTC' - 'days=1' %}"), "1969-12-31 00:00:00"));
test("test_parse_with_custom_format", () => assert.is(render("{% now 'UTC', '%d-%m-%Y' %}"), "01-01-1970"));
test("test_default_format", () => assert.is(render("{% now 'UTC'%}"), "1970-01-01 00:00:00"));
test("test_invalid_timezone", () => throws(() => haystackNow("Invalid/Timezone", null, null, null), /Invalid timezone/));
test("test_invalid_offset", () => throws(() => haystackNow("UTC", "+", "invalid_format", null), /Invalid offset or operator/));
test("test_invalid_operator", () => throws(() => haystackNow("UTC", "*", "hours=2", null), /Invalid offset or operator/));

// svc's own cases around the port: arrow's calendar shifts, strftime directives, whitespace control, variables.
test("svc: months shift clip to the month's end; weeks; fractional days; lowercase utc and 'local'", () => {
  clock.now = () => new Date(Date.UTC(2024, 0, 31, 12, 30, 15, 250));
  assert.is(haystackNow("utc", "+", "months=1", null), "2024-02-29 12:30:15");
  assert.is(haystackNow("UTC", "-", "years=1, weeks=1", null), "2023-01-24 12:30:15");
  assert.is(haystackNow("UTC", "+", "days=0.5", null), "2024-02-01 00:30:15");
  assert.is(typeof haystackNow("local", null, null, null), "string");
  assert.throws(() => haystackNow("UTC", "+", "months=1.5", null), /Invalid offset or operator/);
  assert.throws(() => haystackNow("UTC", "+", "fortnights=1", null), /Invalid offset or operator/);
  assert.is(haystackNow("Europe/Berlin", null, null, "%A %a %B %b %j %I%p %f %z %Z %%"), "Wednesday Wed January Jan 031 01PM 250000 +0100 CET %");
});

test("svc: the tag inside text, with whitespace control and variables, and only where enabled", () => {
  assert.is(compileTemplate("a {%- now tz, fmt -%} b", [], { now: true }).render({ tz: "UTC", fmt: "%Y" }), "a1970b");
  assert.equal(compileTemplate("{% now tz + offset %}", [], { now: true }).variables, ["tz", "offset"]);
  assert.throws(() => compileTemplate("{% now 'UTC' %}").render(), /syntax error|Unknown statement|now/i);
});

test.run();
