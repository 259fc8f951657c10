/**
 * @module `debug_pipeline`: runs a pipeline configuration (not a saved pipeline) in the platform's
 * debug mode — to completion, up to a breakpoint (returning a resumable snapshot), or on from such
 * a snapshot — and returns the run's trace either way, so a failure shows even without a breakpoint.
 */
import * as v from "valibot";
import { parse as parseYaml } from "yaml";
import { ToolError } from "svc/object-store";
import type { BaseTool } from "../tool-config.js";
import { checkYaml, clientOf, flag, objectArg, optionalText, orFail, text, workspaceNotFound, workspaceOf, wsPath } from "./common.js";


export const debugPipeline: BaseTool = {
  name: "debug_pipeline",
  description: `Runs a pipeline YAML configuration in debug mode and returns {status: completed | stopped_at_breakpoint | failed, result?, snapshot?, stopped_at?, trace}.
Pass the YAML to test (from get_pipeline_version, get_pipeline_yaml or a local edit), not a pipeline name. One call does one of:
- \`break_at_component_name\` (with \`break_at_visit_count\`): run from \`inputs\` until that component is about to run, then stop and return a resumable \`snapshot\`;
- \`resume_from\`: continue a \`snapshot\` from an earlier debug run to completion (its inputs are used);
- neither: run from \`inputs\` to completion.
The trace (spans with component inputs and outputs, logs, a failure) is always returned. Set \`dry_run\` to replace state-changing components (e.g. DocumentWriter) with no-ops: needed for indexing pipelines, and on a resume when the snapshot came from a dry run.`,
  parameters: {
    yaml_configuration: text("The pipeline YAML configuration to run."),
    inputs: objectArg("Pipeline inputs by the names under the configuration's `inputs`, e.g. {\"query\": \"What is love?\"}. Ignored with resume_from."),
    break_at_component_name: optionalText("Stop before this component runs. Not together with resume_from."),
    break_at_visit_count: v.optional(v.pipe(v.number(), v.integer(), v.description("Stop at this visit of the component (0: before its first run; for loops).")), 0),
    resume_from: objectArg("A `snapshot` returned by an earlier debug run, to run on to completion."),
    files: v.optional(v.pipe(v.array(v.string()), v.description("Ids of workspace files to pass to the inputs under `inputs.files`."))),
    pipeline_id: optionalText("Id of the pipeline to associate the run with."),
    pipeline_version_id: optionalText("Id of the pipeline version to associate the run with (needs pipeline_id)."),
    dry_run: flag("Replace state-changing components with no-ops.", false),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const yaml = args.yaml_configuration as string;
    checkYaml(yaml, "debug");
    const config = parseYaml(yaml);
    if (!config || typeof config !== "object" || Array.isArray(config)) throw new ToolError("Invalid YAML provided: expected a mapping at the top level.");
    if (args.break_at_component_name !== undefined && args.resume_from !== undefined) {
      throw new ToolError("break_at_component_name and resume_from cannot be combined. Provide at most one.");
    }
    if ((args.break_at_visit_count as number) < 0) throw new ToolError("break_at_visit_count must be 0 or greater.");
    if (args.pipeline_version_id !== undefined && args.pipeline_id === undefined) throw new ToolError("pipeline_version_id requires pipeline_id to be set.");
    const body = {
      pipeline_config: config,
      inputs: args.inputs ?? {},
      dry_run: args.dry_run === true,
      ...(args.break_at_component_name !== undefined ? { break_at: { component_name: args.break_at_component_name, visit_count: args.break_at_visit_count } } : {}),
      ...(args.resume_from !== undefined ? { resume_from: args.resume_from } : {}),
      ...(args.files !== undefined ? { files: args.files } : {}),
      ...(args.pipeline_id !== undefined ? { pipeline_id: args.pipeline_id } : {}),
      ...(args.pipeline_version_id !== undefined ? { pipeline_version_id: args.pipeline_version_id } : {}),
    };
    const result = await orFail(
      () => clientOf(args).post(`${wsPath(ws)}/haystack/pipelines/debug`, body, { signal: args.signal }),
      "Failed to debug pipeline",
      workspaceNotFound(ws),
    );
    if (!result || typeof result !== "object") throw new ToolError("Failed to debug pipeline: Empty response");
    return result;
  },
};
