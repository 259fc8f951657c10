/**
 * @module The account around the pipelines: workspaces (list, get, create), secrets and the
 * current user.
 */
import { ToolError } from "svc/object-store";
import { seg } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import { ResourceNotFoundError } from "../client/errors.js";
import { after, clientOf, integer, orFail, text, toolError } from "./common.js";
import { integrationSecrets } from "./integrations.js";

export const listWorkspaces: BaseTool = {
  name: "list_workspaces",
  description: "Lists the workspaces the API key can use, with their ids and languages. Pipelines, indexes and files live in a workspace.",
  parameters: {},
  async run(args) {
    const body = await orFail(() => clientOf(args).get("v1/workspaces", undefined, { signal: args.signal }), "Failed to list workspaces");
    return Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : [];
  },
};

export const getWorkspace: BaseTool = {
  name: "get_workspace",
  description: "Fetches one workspace by name: its id, languages and default idle time-out.",
  parameters: { workspace_name: text("Name of the workspace.") },
  async run(args) {
    const name = args.workspace_name as string;
    return orFail(
      () => clientOf(args).get(`v1/workspaces/${seg(name)}`, undefined, { signal: args.signal }),
      `Failed to fetch workspace '${name}'`,
      `There is no workspace named '${name}'.`,
    );
  },
};

export const createWorkspace: BaseTool = {
  name: "create_workspace",
  description: "Creates a new workspace in the organisation; pipelines, indexes and files live in a workspace.",
  parameters: { name: text("Name of the new workspace.") },
  async run(args) {
    const name = args.name as string;
    await orFail(() => clientOf(args).post("v1/workspaces", { name }, { signal: args.signal }), `Failed to create workspace '${name}'`);
    return { success: true, message: "Workspace created successfully." };
  },
};

export const listSecrets: BaseTool = {
  name: "list_secrets",
  description: `Lists the names and ids of the organisation's secrets (API keys and credentials that pipeline components read from the environment), and on the first page also the environment variables its model-provider integrations provide (\`invalid\` marks a broken one). Secret values are never shown.
When the result has \`has_more\`, pass its \`next_cursor\` as \`after\`.`,
  parameters: { limit: integer("Number of secrets to list.", 10, 1, 100), after: after() },
  async run(args) {
    // The secrets API pages with `before` (its own naming for "the page after this cursor").
    const query = { limit: String(args.limit), field: "created_at", order: "DESC", before: args.after as string | undefined };
    const body = await orFail(() => clientOf(args).get("v2/secrets", query, { signal: args.signal }), "Failed to list secrets");
    const page = toPage<Record<string, unknown>>(body, "secret_id");
    const secrets: Record<string, unknown>[] = page.data.map((s) => ({ name: s.name, id: s.secret_id }));
    const integrations = args.after ? [] : await orFail(() => integrationSecrets(clientOf(args), args.signal), "Failed to list integrations");
    const data = [...secrets, ...integrations];
    return { ...page, data, total: data.length };
  },
};

export const getSecret: BaseTool = {
  name: "get_secret",
  description: "Fetches one secret's name by its id (never its value); the id may also be an integration's, as list_secrets shows it.",
  parameters: { secret_id: text("Id of the secret.") },
  async run(args) {
    const id = args.secret_id as string;
    const client = clientOf(args);
    try {
      const secret = await client.get(`v2/secrets/${seg(id)}`, undefined, { signal: args.signal });
      return { name: secret?.name, id: secret?.secret_id ?? id };
    } catch (error) {
      if (!(error instanceof ResourceNotFoundError)) throw toolError(error, "Failed to fetch secret");
    }
    const integration = (await orFail(() => integrationSecrets(client, args.signal), "Failed to fetch secret")).find((s) => s.id === id);
    if (!integration) throw new ToolError(`Secret with ID '${id}' not found.`);
    return integration;
  },
};

export const getCurrentUser: BaseTool = {
  name: "get_current_user",
  description: "Fetches the user the API key belongs to: id, given name, family name and e-mail.",
  parameters: {},
  async run(args) {
    const user = await orFail(() => clientOf(args).get("v1/users/me", undefined, { signal: args.signal }), "Failed to fetch the current user");
    return { id: user?.user_id ?? user?.id, given_name: user?.given_name, family_name: user?.family_name, email: user?.email };
  },
};
