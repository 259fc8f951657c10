/**
 * @module `captureStdout(fn)`: runs `fn` with process.stdout.write captured (streaming callbacks
 * such as print_streaming_chunk write there) and returns what it wrote with fn's result.
 */
export async function captureStdout<T>(fn: () => Promise<T>): Promise<{ result: T; written: string }> {
  const original = process.stdout.write.bind(process.stdout);
  const written: string[] = [];
  process.stdout.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stdout.write;
  try {
    const result = await fn();
    return { result, written: written.join("") };
  } finally {
    process.stdout.write = original;
  }
}
