/**
 * @module `rejects(fn, pattern)`: asserts that an async call fails with a message matching the
 * pattern (uvu has no async `throws`). Returns the error for further checks.
 */
import * as assert from "uvu/assert";

export async function rejects(fn: () => Promise<unknown>, pattern: RegExp): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    const text = String(error);
    assert.match(text, pattern);
    return error as Error;
  }
  assert.unreachable(`expected a rejection matching ${pattern}`);
  throw new Error("unreachable");
}
