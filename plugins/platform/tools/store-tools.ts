/**
 * @module The object-store tools: read, slice and search results that earlier tools stored.
 * They need no platform client; a missing object or path is a readable error result.
 */
import * as v from "valibot";
import { errorResult, type Explorer } from "svc/object-store";
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

export const OBJECT_STORE_TOOLS = ["get_from_object_store", "get_slice_from_object_store", "search_object_store"] as const;

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
    search_object_store: tool(
      "search_object_store",
      `Searches a stored result for a regular expression and lists the matches with the text around them (a string is searched as is; other values as their JSON text).`,
      {
        object_id: objectId,
        pattern: text("Regular expression (JavaScript syntax) to look for."),
        path,
        case_sensitive: flag("Match case exactly.", false),
      },
      ({ object_id, pattern, path, case_sensitive }) => explorer.search(object_id, pattern, path, case_sensitive),
    ),
  };
}
