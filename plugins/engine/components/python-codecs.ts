/**
 * @module Python's `bytes.decode(encoding)` for the converters: Python's codec names as WHATWG
 * labels, strict (bytes that do not decode are an error, as in Python).
 */

/** Python codec names that are not WHATWG labels. */
const PYTHON_ENCODINGS: Record<string, string> = { "latin-1": "latin1", "iso8859-1": "iso-8859-1", "iso8859-15": "iso-8859-15", cp1252: "windows-1252", "utf-16-le": "utf-16le", "utf-16-be": "utf-16be", ascii: "us-ascii" };

/** Python's bytes.decode(encoding): an unknown encoding or bytes that do not decode are errors. */
export function decodeStrict(data: Buffer, encoding: string): string {
  // Python's names (utf_8, latin-1, utf-8-sig) as WHATWG labels; Python's utf-8 keeps a BOM, utf-8-sig drops it.
  const lower = encoding.trim().toLowerCase().replace(/_/g, "-");
  const name = PYTHON_ENCODINGS[lower] ?? lower;
  const sig = name === "utf-8-sig" || name === "utf8-sig";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(sig ? "utf-8" : name, { fatal: true, ignoreBOM: !sig });
  } catch {
    throw new Error(`unknown encoding: ${encoding}`);
  }
  try {
    return decoder.decode(data);
  } catch {
    throw decodeError(data, sig ? "utf-8" : name);
  }
}

/**
 * Python's UnicodeDecodeError text ("'utf-8' codec can't decode byte 0xff in position 4: invalid
 * start byte"): the first prefix a streaming decoder refuses ends at the offending byte.
 */
function decodeError(data: Buffer, name: string): Error {
  let lo = 1;
  let hi = data.length;
  const fails = (n: number) => {
    try {
      new TextDecoder(name, { fatal: true }).decode(data.subarray(0, n), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fails(mid)) hi = mid;
    else lo = mid + 1;
  }
  const position = lo - 1;
  const byte = data[position] ?? 0;
  const reason = name === "utf-8" && byte >= 0x80 && byte <= 0xbf ? "invalid start byte" : name === "utf-8" && byte >= 0xc2 && byte <= 0xf4 ? "invalid continuation byte" : "invalid start byte";
  return Object.assign(new Error(`'${name}' codec can't decode byte 0x${byte.toString(16).padStart(2, "0")} in position ${position}: ${reason}`), { name: "UnicodeDecodeError" });
}
