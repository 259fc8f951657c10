// A streaming pipeline: runApi is an async generator, so /countdown/run streams its text as it is
// produced. It stops as soon as the client goes away (ctx.signal).
import * as v from "valibot";
import { BasePipelineWrapper, type RunContext } from "svc";

const Input = v.object({
  from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Where to start counting down.")), 5),
  delay_ms: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(5000), v.description("Pause between numbers, in milliseconds.")), 300),
});

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Counts down to liftoff, streaming one number at a time.";
  static inputSchema = Input;

  async *runApi(input: v.InferOutput<typeof Input>, ctx: RunContext) {
    for (let n = input.from; n > 0; n--) {
      yield `${n}… `;
      await sleep(input.delay_ms, ctx.signal);
    }
    yield "liftoff!\n";
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
