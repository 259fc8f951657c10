/**
 * @module Custom component installations of the organisation: the uploads of custom component
 * packages, their status and logs. These endpoints are organisation-wide (the workspace is not
 * used), and page with `before` where the others say `after`.
 */
import { apiErrorFor } from "../client/errors.js";
import { seg } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import { after, clientOf, integer, orFail } from "./common.js";

export const listCustomComponentInstallations: BaseTool = {
  name: "list_custom_component_installations",
  description: `Lists the organisation's custom component installations, newest first: id, status (e.g. INSTALLED, FAILED), package version, logs, and who installed it (\`user_info\`: name and e-mail).
When the result has \`has_more\`, pass its \`next_cursor\` as \`after\`.`,
  parameters: { limit: integer("Installations per page.", 20, 1, 100), after: after() },
  async run(args) {
    const client = clientOf(args);
    const prefix = "Failed to retrieve custom component installations";
    // The API's `before` is its name for "the page after this cursor".
    const query = { limit: args.limit as number, field: "created_at", order: "DESC", before: args.after as string | undefined };
    const body = await orFail(() => client.get("v2/custom_components", query, { signal: args.signal }), prefix);
    const page = toPage<Record<string, any>>(body, "custom_component_id");
    // Who installed it; a user who cannot be read (left the organisation) is just not named.
    const users = new Map<string, Promise<unknown>>();
    const userOf = (id: string) => {
      if (!users.has(id)) users.set(id, client.get(`v1/users/${seg(id)}`, undefined, { signal: args.signal }).catch(() => undefined));
      return users.get(id)!;
    };
    const data = await Promise.all(
      page.data.map(async (item) => {
        const user: any = item.created_by_user_id ? await userOf(String(item.created_by_user_id)) : undefined;
        return user ? { ...item, user_info: { id: user.user_id ?? user.id, given_name: user.given_name, family_name: user.family_name, email: user.email } } : item;
      }),
    );
    return { ...page, data };
  },
};

export const getLatestCustomComponentInstallationLogs: BaseTool = {
  name: "get_latest_custom_component_installation_logs",
  description: "Fetches the logs of the latest custom component installation, as text: use it to see why an installation failed.",
  parameters: {},
  async run(args) {
    // The logs are plain text, not JSON.
    const logs = await orFail(async () => {
      const res = await clientOf(args).request("v2/custom_components/logs", { signal: args.signal });
      if (!res.ok) throw apiErrorFor(res.status, res.text, res.json);
      return res.text;
    }, "Failed to retrieve latest installation logs");
    return logs || "No installation logs found.";
  },
};
