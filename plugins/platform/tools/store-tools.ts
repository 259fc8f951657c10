/**
 * @module The object-store tools: read, slice, search (grep), edit (sed) and query (yq, with jq
 * filters) results that earlier tools stored; edits and queries store their result as a new
 * object. They need no platform client; a missing object or path is a readable error result.
 * `search_object_store` is the earlier name of `grep_object_store`.
 */
import * as v from "valibot";
import { errorResult, queryObject, replaceInObject, type Explorer } from "svc/object-store";
import type { PlatformTool } from "../build-tool.js";
import { flag, text } from "./common.js";

const objectId = text("The object id from an earlier result, e.g. `@obj_001` (a path may follow: `@obj_001.data.0`).");
const path = v.optional(v.pipe(v.string(), v.description("Path inside the object, e.g. `data.0.name` or `items[2]`; empty for the whole object.")), "");

function tool(name: string, description: string, parameters: PlatformTool["parameters"], run: (args: any) => Promise<string>): PlatformTool {
  return {
    name,
    description,
    parameters,
    async handler(args) {
      try {
        return await run(args);
      } catch (error) {
        return errorResult((error as Error).message);
      }
    },
  };
}

export const OBJECT_STORE_TOOLS = [
  "get_from_object_store",
  "get_slice_from_object_store",
  "grep_object_store",
  "search_object_store",
  "sed_object_store",
  "yq_object_store",
] as const;

const grepParameters = {
  object_id: objectId,
  pattern: text("Regular expression (JavaScript syntax) to look for."),
  path,
  case_sensitive: flag("Match case exactly.", false),
};
const grepDescription = `Searches a stored result for a regular expression and lists the matches with the text around them (a string is searched as is; other values as their JSON text).
Use it to find where something is in a long text, such as a component in a pipeline YAML, before reading or editing that part.`;

export function objectStoreTools(explorer: Explorer): Record<(typeof OBJECT_STORE_TOOLS)[number], PlatformTool> {
  return {
    get_from_object_store: tool(
      "get_from_object_store",
      `Shows a stored result, or the part of it at \`path\`, as a preview: type, size and contents, with long lists and strings cut (the markers say how much is left out).
Use it to look inside an \`@obj_…\` result; drill down with a path such as \`data.3\` or \`data.3.name\`.`,
      { object_id: objectId, path },
      ({ object_id, path }) => explorer.explore(object_id, path),
    ),
    get_slice_from_object_store: tool(
      "get_slice_from_object_store",
      `Returns a slice of a stored string or list: characters or items from \`start\` up to (not including) \`end\`; negative indices count from the end.
Use it to read a long text or list in parts.`,
      {
        object_id: objectId,
        start: v.optional(v.pipe(v.number(), v.integer(), v.description("First index (default 0).")), 0),
        end: v.optional(v.pipe(v.number(), v.integer(), v.description("Index to stop before (default: the end)."))),
        path,
      },
      ({ object_id, start, end, path }) => explorer.slice(object_id, start, end, path),
    ),
    grep_object_store: tool("grep_object_store", grepDescription, grepParameters, ({ object_id, pattern, path, case_sensitive }) =>
      explorer.search(object_id, pattern, path, case_sensitive),
    ),
    search_object_store: tool("search_object_store", `${grepDescription}\n(The same tool as grep_object_store.)`, grepParameters, ({ object_id, pattern, path, case_sensitive }) =>
      explorer.search(object_id, pattern, path, case_sensitive),
    ),
    sed_object_store: tool(
      "sed_object_store",
      `Replaces matches of a regular expression in a stored string and stores the edited text as a new object (the original stays as it is); returns the new reference and a preview.
Use it to edit a stored pipeline YAML, then pass the new reference (e.g. to validate_pipeline or create_pipeline_version). \`replacement\` may use the groups of the match: \`$1\` or \`\\1\`, \`$<name>\` or \`\\g<name>\`.`,
      {
        object_id: objectId,
        pattern: text("Regular expression (JavaScript syntax) to replace."),
        replacement: text("The replacement text."),
        path,
        count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description("How many matches to replace, from the first (0: all).")), 0),
        case_sensitive: flag("Match case exactly.", false),
      },
      ({ object_id, pattern, replacement, path, count, case_sensitive }) => replaceInObject(explorer, object_id, pattern, replacement, path, count, case_sensitive),
    ),
    yq_object_store: tool(
      "yq_object_store",
      `Queries or reshapes a stored result with a jq filter (e.g. \`.data[] | select(.status == "DEPLOYED") | .name\`, \`.components | keys\`); a stored JSON or YAML text is parsed first and an object or list result written back as JSON or YAML text.
Several outputs become a list. By default the result is stored as a new object (its reference is returned, ready to pass on); \`store: false\` only shows it.`,
      {
        object_id: objectId,
        filter: text("A jq filter."),
        path,
        store: flag("Store the result as a new object.", true),
      },
      ({ object_id, filter, path, store }) => queryObject(explorer, object_id, filter, path, store),
    ),
  };
}
