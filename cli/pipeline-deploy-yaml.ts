/**
 * @module `svc pipeline deploy-yaml <file>`: sends a YAML pipeline definition to
 * `POST /deploy-yaml` as JSON `{name, source_code, description, overwrite, skip_mcp, save_file}`.
 */
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { SvcClient, runClientCommand, withOverwriteHint } from "./client.js";
import { checkFile } from "./files.js";
import { booleanFlag, stringFlag } from "./flags.js";
import { success } from "./output.js";
import type { PipelineAction } from "./pipeline.js";

interface ActionResponse {
  message?: string;
  name?: string;
}

export async function deployYaml(file: string, flags: Record<string, unknown>): Promise<void> {
  await runClientCommand(async () => {
    await checkFile(file, "Pipeline file");
    const name = stringFlag(flags, "name") || basename(file, extname(file));
    const source = await readFile(file, "utf8");
    const client = SvcClient.fromSettings(process.cwd(), stringFlag(flags, "url"));
    const answer = await client.json<ActionResponse>("POST", "/deploy-yaml", {
      json: {
        name,
        source_code: source,
        description: stringFlag(flags, "description") ?? name,
        overwrite: booleanFlag(flags, "overwrite"),
        skip_mcp: booleanFlag(flags, "skipMcp"),
        save_file: booleanFlag(flags, "saveFile", true),
      },
    }).catch((error: unknown) => Promise.reject(withOverwriteHint(error)));
    success(answer.message ?? `Pipeline '${name}' successfully deployed`);
  });
}

export const deployYamlAction: PipelineAction = {
  name: "deploy-yaml",
  args: ["<file>"],
  summary: "Deploy a YAML pipeline definition (name: the file stem unless --name)",
  options: [
    { raw: "-n, --name <name>", description: "Pipeline name (default: the file stem)" },
    { raw: "--description <text>", description: "Pipeline description (default: the name)" },
    { raw: "-o, --overwrite", description: "Replace a deployed pipeline of the same name" },
    { raw: "--skip-mcp", description: "Do not list the pipeline as an MCP tool" },
    { raw: "--save-file", description: "Keep the YAML file in the server's pipelines directory (the default)" },
    { raw: "--no-save-file", description: "Do not keep the YAML file on the server" },
  ],
  examples: ["svc pipeline deploy-yaml ./calc.yml", "svc pipeline deploy-yaml ./calc.yml --name calculator --no-save-file"],
  run: ([file], flags) => deployYaml(file!, flags),
};
