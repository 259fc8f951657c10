/**
 * @module Haystack's `{% now %}` tag (utils.jinja2_extensions.Jinja2TimeExtension, as used by
 * PromptBuilder and ChatPromptBuilder): `{% now 'UTC' %}`, `{% now 'UTC' + 'hours=2' %}`,
 * `{% now 'America/New_York' - 'days=1, hours=2', '%d-%m-%Y' %}`. The tag is rewritten into a call
 * of a global function before parsing; the time is arrow's `now(tz).shift(...).strftime(format)`.
 */

export const NOW_FUNCTION = "__haystack_now";

/** The current time; tests replace `now` to fix the clock (as Haystack's tests patch `arrow.now`). */
export const clock = { now: (): Date => new Date() };

/** Top-level positions of `chars` in an expression (outside quotes and brackets). */
function topLevel(expr: string, test: (c: string, i: number) => boolean): number[] {
  const found: number[] = [];
  let depth = 0, quote = "";
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (depth === 0 && test(c, i)) found.push(i);
  }
  return found;
}

/** `{% now tz [+|- offset] [, format] %}` → `{{ __haystack_now(tz, op, offset, format) }}`, whitespace control kept. */
export function rewriteNowTags(source: string): string {
  return source.replace(/\{%(-?)\s*now\b((?:[^%'"]|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|%(?!\}))*?)(-?)%\}/g, (_, l: string, body: string, r: string) => {
    const comma = topLevel(body, (c) => c === ",")[0];
    const expr = comma === undefined ? body : body.slice(0, comma);
    const format = comma === undefined ? "none" : body.slice(comma + 1).trim() || "none";
    // Jinja parses `a + b - c` left to right, so the tag's operator is the last binary + or - at top level.
    const binary = topLevel(expr, (c, i) => (c === "+" || c === "-") && /[\w'")\]}]\s*$/.test(expr.slice(0, i))).at(-1);
    const args = binary === undefined ? `(${expr.trim()}), none, none` : `(${expr.slice(0, binary).trim()}), "${expr[binary]}", (${expr.slice(binary + 1).trim()})`;
    return `{{${l} ${NOW_FUNCTION}(${args}, (${format})) ${r}}}`;
  });
}

interface Wall { year: number; month: number; day: number; hour: number; minute: number; second: number; micro: number; weekday: number }

function zoneName(timezone: string): string {
  const tz = timezone.trim();
  if (tz.toLowerCase() === "local") return Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (/^(utc|z)$/i.test(tz)) return "UTC";
  return tz;
}

/** Wall-clock fields of an instant in a time zone, its UTC offset in minutes and its abbreviation. */
function wallClock(at: Date, zone: string): { wall: Wall; offset: number; abbr: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", weekday: "short", timeZoneName: "short" })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const wall: Wall = { year: +parts.year!, month: +parts.month!, day: +parts.day!, hour: +parts.hour!, minute: +parts.minute!, second: +parts.second!, micro: at.getUTCMilliseconds() * 1000, weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday!) };
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, at.getUTCMilliseconds());
  return { wall, offset: Math.round((asUtc - at.getTime()) / 60000), abbr: abbreviation(at, zone, parts.timeZoneName!) };
}

/** The zone's abbreviation as tzdata names it (EST, CET): en-US knows the American ones, en-GB the European ones. */
function abbreviation(at: Date, zone: string, american: string): string {
  if (!american.startsWith("GMT")) return american;
  const british = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
  return british && !british.startsWith("GMT") ? british : american;
}

const UNITS: Record<string, number> = { weeks: 7 * 86400e6, days: 86400e6, hours: 3600e6, minutes: 60e6, seconds: 1e6, microseconds: 1 };
const CALENDAR: Record<string, number> = { years: 12, quarters: 3, months: 1 };

/** arrow's shift: calendar units on the wall clock (day clipped to the month's end), then a time delta. */
function shift(at: Date, zone: string, op: string, offset: string): Date {
  const { offset: before } = wallClock(at, zone);
  let wall = at.getTime() + before * 60000; // the wall clock, in milliseconds as if it were UTC
  let months = 0, micros = 0;
  for (const param of offset.split(",")) {
    const pieces = param.split("=");
    if (pieces.length !== 2) throw new Error(`not enough values to unpack (expected 2, got ${pieces.length})`);
    const unit = pieces[0]!.trim(), raw = (op + pieces[1]!.trim()).replace(/_/g, "");
    const value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw) ? Number(raw) : NaN;
    if (Number.isNaN(value)) throw new Error(`could not convert string to float: '${op + pieces[1]!.trim()}'`);
    if (unit in CALENDAR) {
      if (!Number.isInteger(value)) throw new Error("Non-integer years and months are ambiguous and not currently supported.");
      months += value * CALENDAR[unit]!;
    } else if (unit in UNITS) micros += value * UNITS[unit]!;
    else throw new Error(`Invalid shift time frame. Please select one of ${JSON.stringify(["years", "months", "days", "hours", "minutes", "seconds", "microseconds", "weeks", "quarters"])}.`);
  }
  if (months) {
    const d = new Date(wall), target = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
    const year = Math.floor(target / 12), month = target - year * 12;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    d.setUTCFullYear(year, month, Math.min(d.getUTCDate(), lastDay));
    wall = d.getTime();
  }
  wall += micros / 1000;
  // Back to an instant: the zone's offset at the new wall time (two passes settle DST changes).
  let instant = wall - before * 60000;
  instant = wall - wallClock(new Date(instant), zone).offset * 60000;
  return new Date(instant);
}

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const pad = (n: number, width = 2, fill = "0") => String(n).padStart(width, fill);

/** Python's strftime (the C locale) for the directives Python documents. */
export function strftime(at: Date, zone: string, format: string): string {
  const { wall: w, offset, abbr } = wallClock(at, zone);
  const dayOfYear = Math.round((Date.UTC(w.year, w.month - 1, w.day) - Date.UTC(w.year, 0, 1)) / 86400e3) + 1;
  const sundayWeekday = (w.weekday + 1) % 7;
  const z = `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
  const isoThursday = new Date(Date.UTC(w.year, w.month - 1, w.day + 3 - w.weekday));
  const isoYear = isoThursday.getUTCFullYear();
  const isoWeek = Math.floor((isoThursday.getTime() - Date.UTC(isoYear, 0, 1)) / (7 * 86400e3)) + 1;
  const f: Record<string, () => string> = {
    a: () => DAYS[w.weekday]!.slice(0, 3), A: () => DAYS[w.weekday]!, w: () => String(sundayWeekday), u: () => String(w.weekday + 1),
    d: () => pad(w.day), e: () => pad(w.day, 2, " "), b: () => MONTHS[w.month - 1]!.slice(0, 3), h: () => MONTHS[w.month - 1]!.slice(0, 3), B: () => MONTHS[w.month - 1]!,
    m: () => pad(w.month), y: () => pad(w.year % 100), Y: () => String(w.year), C: () => pad(Math.floor(w.year / 100)),
    H: () => pad(w.hour), I: () => pad(w.hour % 12 || 12), p: () => (w.hour < 12 ? "AM" : "PM"), M: () => pad(w.minute), S: () => pad(w.second),
    f: () => pad(w.micro, 6), z: () => z, Z: () => abbr, j: () => pad(dayOfYear, 3),
    U: () => pad(Math.floor((dayOfYear + 6 - sundayWeekday) / 7)), W: () => pad(Math.floor((dayOfYear + 6 - w.weekday) / 7)),
    G: () => String(isoYear), V: () => pad(isoWeek), D: () => `${f.m!()}/${f.d!()}/${f.y!()}`, F: () => `${w.year}-${f.m!()}-${f.d!()}`,
    T: () => `${f.H!()}:${f.M!()}:${f.S!()}`, R: () => `${f.H!()}:${f.M!()}`, r: () => `${f.I!()}:${f.M!()}:${f.S!()} ${f.p!()}`,
    c: () => `${f.a!()} ${f.b!()} ${f.e!()} ${f.T!()} ${w.year}`, x: () => f.D!(), X: () => f.T!(), n: () => "\n", t: () => "\t", "%": () => "%",
  };
  return format.replace(/%([a-zA-Z%])/g, (all, d: string) => (f[d] ? f[d]!() : all));
}

/** `_get_datetime`: the current time in `timezone`, shifted by `offset` with `operator`, formatted. */
export function haystackNow(timezone: unknown, operator: unknown, offset: unknown, format: unknown): string {
  const zone = zoneName(String(timezone));
  let at = clock.now();
  try {
    wallClock(at, zone);
  } catch (e) {
    throw new Error(`Invalid timezone ${String(timezone)}: ${(e as Error).message}`);
  }
  if (offset && operator) {
    try {
      at = shift(at, zone, String(operator), String(offset));
    } catch (e) {
      throw new Error(`Invalid offset or operator ${String(offset)}, ${String(operator)}: ${(e as Error).message}`);
    }
  }
  return strftime(at, zone, typeof format === "string" && format ? format : "%Y-%m-%d %H:%M:%S");
}
