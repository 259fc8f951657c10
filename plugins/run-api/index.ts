/**
 * @module svc:run-api: `POST /{name}/run`. The body is validated by the wrapper's input schema,
 * the call goes through the kernel's `run` hook (transport `rest`) and the result is answered as
 * JSON, a stream or a file. A wrapper error is a 500 `Pipeline execution failed: …`.
 */
import { CallRunContext, HttpError, REGISTRY, RequestRunCall, definePlugin, messageOf, type BasePipelineWrapper, type KernelPlugin } from "svc";
import { readRunInput } from "./input.js";
import { respond } from "./respond.js";

export default function runApiPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:run-api",
    setup(kernel) {
      const registry = kernel.resolve(REGISTRY);
      kernel.route(
        "POST",
        "/:name/run",
        async (c) => {
          const name = c.params.name!;
          const pipeline = registry.get(name);
          if (!pipeline) throw new HttpError(404, `Pipeline '${name}' not found`);
          if (!pipeline.capabilities.api) throw new HttpError(404, `Pipeline '${name}' has no run endpoint: its wrapper implements no runApi`);
          const { input, files } = await readRunInput(c, pipeline);
          const wrapper = pipeline.wrapper as BasePipelineWrapper;
          const call = new RequestRunCall(c, name, "runApi", "rest", input);
          let result: unknown;
          try {
            result = await kernel.run(call, (call) => wrapper.runApi!(call.input, new CallRunContext(call, () => c.log, files)));
          } catch (error) {
            if (error instanceof HttpError) throw error;
            throw new HttpError(500, `Pipeline execution failed: ${messageOf(error)}`, { cause: error });
          }
          await respond(kernel, c, name, result);
        },
        { scope: "run", docs: false },
      );
    },
  });
}
