import { test } from "uvu";
import * as assert from "uvu/assert";
import { connect } from "node:net";
import { definePlugin } from "svc/plugin";
import { startKernel } from "../helpers/kernel.js";

const IDLE_S = 2;

/** Sends a request head and part of its body, one more byte after `lastByteAfterMs`, then nothing: ms from that byte to the answer. */
function stallAfter(url: string, lastByteAfterMs: number): Promise<{ ms: number; text: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let lastByteAt = 0;
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
      if (text.includes("\r\n\r\n")) {
        resolve({ ms: performance.now() - lastByteAt, text });
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.write("POST /raw HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
    setTimeout(() => {
      socket.write('"');
      lastByteAt = performance.now();
    }, lastByteAfterMs);
  });
}

test(`a stalled body is answered 408 between 1x and about 1.1x SERVICE_BODY_TIMEOUT after its last byte, whatever the phase (${IDLE_S} s)`, async () => {
  const plugin = definePlugin({ name: "raw", setup: (k) => k.route("POST", "/raw", async (c) => ({ value: await c.json() })) });
  const k = await startKernel({ settings: { bodyTimeout: IDLE_S }, plugins: [plugin] });
  try {
    // Four bodies whose last bytes arrive a quarter of the time-out apart: one shared check per
    // time-out let some of them wait almost twice the time-out.
    const offsets = [0, 0.25, 0.5, 0.75].map((f) => 300 + f * IDLE_S * 1000);
    const results = await Promise.all(offsets.map((ms) => stallAfter(k.url, ms)));
    for (const { ms, text } of results) {
      assert.match(text, /^HTTP\/1\.1 408 /);
      assert.ok(ms >= IDLE_S * 1000 - 50, `not before the time-out: ${Math.round(ms)} ms`);
      // 1.1x plus generous room for a loaded machine; the old check reached 1.75x here.
      assert.ok(ms < IDLE_S * 1000 * 1.45, `close to the time-out: ${Math.round(ms)} ms`);
    }
  } finally {
    await k.close();
  }
});

test.run();
