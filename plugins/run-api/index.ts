/**
 * @module svc:run-api: `POST /{name}/run`. The body is validated by the wrapper's input schema,
 * the pipeline is invoked through the kernel (transport `rest`) and its result answered as JSON,
 * a stream or a file (respond.ts).
 */
import { definePlugin, type Invocation, type KernelPlugin, type RequestContext } from "svc/plugin";
import { readRunInput } from "./input.js";
import { respond } from "./respond.js";

export default function runApiPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:run-api",
    setup(kernel) {
      kernel.route(
        "POST",
        "/:name/run",
        // Callbacks rather than an async function: a JSON body is read with no promise, and a run
        // that settled at once is answered at once (failures are answered by `c.fail`).
        (c) => {
          const pipeline = kernel.pipelineFor(c.params.name!, "runApi");
          return readRunInput(c, pipeline, ({ input, files }) => {
            const invocation = kernel.invokeOrValue({ pipeline, method: "runApi", transport: "rest", input, files, request: c });
            return invocation instanceof Promise ? invocation.then((ready) => answer(c, ready)) : answer(c, invocation);
          });
        },
        { scope: "run", docs: false },
      );
    },
  });
}

/** A value or a file is answered at once; a stream is read to its end, then closed. */
function answer(c: RequestContext, invocation: Invocation): Promise<void> | undefined {
  const streaming = respond(c, invocation);
  return streaming ? streaming.finally(() => invocation.close()) : undefined;
}
