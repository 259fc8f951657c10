// Server-Sent Events from a fetch body: yields the `data` of each event as it completes. Comment
// lines (the server's `: ping` heartbeats) and other fields are skipped; an event cut off by the
// end of the stream is dropped, as the SSE specification says.

/** @param {ReadableStream<Uint8Array>} body */
export async function* sseData(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let data = null;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      // the last piece may be a line still arriving (a lone \r at the end is kept for its \n)
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "") {
          if (data !== null) yield data;
          data = null;
        } else if (line.startsWith("data:")) {
          const value = line.slice(line.startsWith("data: ") ? 6 : 5);
          data = data === null ? value : `${data}\n${value}`;
        }
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
