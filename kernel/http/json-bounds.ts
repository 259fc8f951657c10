/**
 * @module Bounded JSON: `JSON.parse` accepts any nesting and turns numbers too large for a double
 * into Infinity, which later code cannot handle (a stack overflow when the value is serialised, a
 * silent `null` on the way back). One pass over the text before parsing finds both: nesting deeper
 * than the limit, and numbers that may overflow (an exponent, or a long run of digits), which are
 * then checked by a reviver. Ordinary bodies take the plain `JSON.parse` path.
 */
import { HttpError } from "../errors.js";

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isExponent = (c: number) => c === 0x65 || c === 0x45; // e E

/** Digits past which a plain integer may overflow a double (1e308 has 309). */
const LONG_NUMBER = 309;

interface Shape {
  readonly depth: number;
  /** A number with an exponent or very many digits: worth checking for Infinity. */
  readonly mayOverflow: boolean;
}

/** Walks the text once; stops as soon as the nesting passes `maxDepth`. */
function shapeOf(text: string, maxDepth: number): Shape {
  let depth = 0;
  let deepest = 0;
  let digits = 0;
  let mayOverflow = false;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (isDigit(c)) {
      if (++digits >= LONG_NUMBER) mayOverflow = true;
      continue;
    }
    if (isExponent(c) && i > 0) {
      const before = text.charCodeAt(i - 1);
      if (isDigit(before) || before === DOT) mayOverflow = true;
    }
    digits = 0;
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > deepest && (deepest = depth) > maxDepth) break;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return { depth: deepest, mayOverflow };
}

function finiteNumbers(_key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) throw new HttpError(400, "Malformed JSON body: a number is too large to represent.");
  return value;
}

/**
 * Parses JSON text under a nesting limit: too deep, a number that overflows to Infinity, or text
 * that is not JSON is a 400 naming the problem. Empty text is `undefined`.
 */
export function parseBoundedJson(text: string, maxDepth: number): unknown {
  if (text.length === 0) return undefined;
  const shape = shapeOf(text, maxDepth);
  if (shape.depth > maxDepth) {
    throw new HttpError(400, `Malformed JSON body: nested deeper than ${maxDepth} levels (SERVICE_MAX_JSON_DEPTH).`);
  }
  try {
    return shape.mayOverflow ? JSON.parse(text, finiteNumbers) : JSON.parse(text);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}
