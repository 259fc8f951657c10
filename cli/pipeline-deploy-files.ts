/**
 * @module `svc pipeline deploy-files <path> --name <name>`: uploads a wrapper folder to
 * `POST /deploy-files` as multipart/form-data (fields name, description, overwrite, save_files,
 * skip_mcp and one `files` part per file, named by its relative path).
 */
import { CliError, SvcClient, UsageError, runClientCommand, withOverwriteHint } from "./client.js";
import { appendFiles, listFolder } from "./files.js";
import { booleanFlag, stringFlag } from "./flags.js";
import { success } from "./output.js";
import type { PipelineAction } from "./pipeline.js";

interface ActionResponse {
  message?: string;
  name?: string;
}

export async function deployFiles(path: string, flags: Record<string, unknown>): Promise<void> {
  const name = stringFlag(flags, "name");
  if (!name) throw new UsageError("missing required option `-n, --name <name>` for `svc pipeline deploy-files`");
  await runClientCommand(async () => {
    const files = await listFolder(path);
    if (files.length === 0) {
      throw new CliError(`No files found in ${path} (dotfiles, dot-folders and node_modules are skipped)`);
    }
    const form = new FormData();
    form.append("name", name);
    form.append("description", stringFlag(flags, "description") ?? name);
    form.append("overwrite", String(booleanFlag(flags, "overwrite")));
    form.append("save_files", String(!booleanFlag(flags, "skipSavingFiles")));
    // Only when given: without it the wrapper's own `static skipMcp` decides.
    if (flags.skipMcp !== undefined) form.append("skip_mcp", String(booleanFlag(flags, "skipMcp")));
    await appendFiles(form, files);
    const client = SvcClient.fromSettings(process.cwd(), stringFlag(flags, "url"));
    const label = `Uploading ${files.length} file${files.length === 1 ? "" : "s"}`;
    const answer = await client
      .json<ActionResponse>("POST", "/deploy-files", { form, label })
      .catch((error: unknown) => Promise.reject(withOverwriteHint(error)));
    success(answer.message ?? `Pipeline '${name}' successfully deployed`);
  });
}

export const deployFilesAction: PipelineAction = {
  name: "deploy-files",
  args: ["<path>"],
  summary: "Deploy a wrapper folder (pipeline_wrapper.ts and its files) under a name",
  options: [
    {
      raw: "-n, --name <name>",
      description: "Pipeline name (required)",
      listed: "Pipeline name (deploy-files: required; deploy-yaml: default the file stem)",
    },
    { raw: "--description <text>", description: "Pipeline description (default: the name)" },
    { raw: "-o, --overwrite", description: "Replace a deployed pipeline of the same name" },
    { raw: "--skip-saving-files", description: "Do not keep the files in the server's pipelines directory" },
    { raw: "--skip-mcp", description: "Do not list the pipeline as an MCP tool" },
  ],
  examples: ["svc pipeline deploy-files ./pipelines/chat --name chat", "svc pipeline deploy-files ./chat -n chat -o --description 'Chat with docs'"],
  run: ([path], flags) => deployFiles(path!, flags),
};
