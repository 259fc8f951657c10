/**
 * @module `svc pipeline <action> [...args]`. cac cannot match multi-word commands (cac#170), so one
 * command takes the action as its first argument and dispatches to the action's file. Each action
 * declares its arguments and options: the command registers the union of them (so cac parses and
 * lists them), and the dispatcher rejects an option the chosen action does not take.
 * `svc pipeline --help` lists the actions; `svc pipeline <action> --help` shows that action's usage.
 */
import type { CAC, Command } from "cac";
import { UsageError } from "./client.js";
import { deployFilesAction } from "./pipeline-deploy-files.js";
import { deployYamlAction } from "./pipeline-deploy-yaml.js";
import { runAction } from "./pipeline-run.js";
import { undeployAction } from "./pipeline-undeploy.js";

export interface ActionOption {
  /** As cac takes it: `-n, --name <name>`. */
  readonly raw: string;
  readonly description: string;
  /** The description in `svc pipeline --help`, where every action's options are listed together. */
  readonly listed?: string;
  readonly config?: { type?: unknown[]; default?: unknown };
}

export interface PipelineAction {
  readonly name: string;
  /** Positional arguments as shown in usage: `<path>`. Each is required. */
  readonly args: readonly string[];
  readonly summary: string;
  readonly options: readonly ActionOption[];
  readonly examples?: readonly string[];
  run(args: string[], flags: Record<string, unknown>): Promise<void>;
}

/** Every action talks to a server: `--url` says which (default: SERVICE_HOST and SERVICE_PORT). */
export const URL_OPTION: ActionOption = { raw: "--url <url>", description: "The server, e.g. http://10.0.0.5:1416 (default: http://SERVICE_HOST:SERVICE_PORT)" };

export const pipelineActions: readonly PipelineAction[] = [deployFilesAction, deployYamlAction, undeployAction, runAction].map((a) => ({
  ...a,
  options: [...a.options, URL_OPTION],
}));

type Section = { title?: string; body: string };

function usageOf(action: PipelineAction): string {
  return `pipeline ${action.name}${action.args.map((a) => ` ${a}`).join("")} [options]`;
}

export function registerPipelineCommand(cli: CAC): Command {
  const command = cli
    .command("pipeline <action> [...args]", "Manage pipelines on a running svc: deploy-files, deploy-yaml, undeploy, run")
    .usage("pipeline <action> [...args] [options]");

  // One cac option per distinct flag; its help names the actions that take it.
  const merged = new Map<string, { option: ActionOption; actions: string[] }>();
  for (const action of pipelineActions) {
    for (const option of action.options) {
      const entry = merged.get(option.raw);
      if (entry) entry.actions.push(action.name);
      else merged.set(option.raw, { option, actions: [action.name] });
    }
  }
  for (const { option, actions } of merged.values()) {
    command.option(option.raw, `${option.listed ?? option.description} [${actions.join(", ")}]`, option.config);
  }

  command.action(async (name: string, args: string[], parsed: Record<string, unknown>) => {
    let flags = parsed;
    const action = pipelineActions.find((a) => a.name === name);
    if (!action) {
      throw new UsageError(`unknown pipeline action '${name}' (expected one of: ${pipelineActions.map((a) => a.name).join(", ")})`);
    }
    checkOptions(command, cli, action, flags);
    flags = { ...flags, ...valuesAsTyped(command, cli.rawArgs.slice(2)) };
    if (args.length < action.args.length) {
      throw new UsageError(`missing ${action.args.slice(args.length).join(" ")} for \`svc ${usageOf(action)}\``);
    }
    if (args.length > action.args.length) {
      throw new UsageError(`unexpected argument${args.length - action.args.length > 1 ? "s" : ""}: ${args.slice(action.args.length).join(" ")}`);
    }
    await action.run(args, flags);
  });
  return command;
}

/**
 * The values of every option that takes one, as typed: mri turns numeric-looking values into
 * numbers ("007" → 7) and loses values when `-p` and `--param` are mixed, so they are read from
 * argv again (`--opt value`, `--opt=value`, `-o value`, `-o=value`; nothing after `--`).
 */
function valuesAsTyped(command: Command, argv: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const end = argv.indexOf("--");
  const args = end < 0 ? argv : argv.slice(0, end);
  for (const option of command.options) {
    if (option.isBoolean) continue;
    const spellings = option.rawName.split(",").map((s) => s.trim().split(/\s/)[0]!);
    const values: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const token = args[i]!;
      if (spellings.includes(token)) {
        if (i + 1 < args.length) values.push(args[++i]!);
        continue;
      }
      const inline = spellings.find((s) => token.startsWith(`${s}=`));
      if (inline) values.push(token.slice(inline.length + 1));
    }
    if (values.length) for (const name of option.names) out[name] = values;
  }
  return out;
}

/** Rejects options given on the command line that the action does not take. */
function checkOptions(command: Command, cli: CAC, action: PipelineAction, flags: Record<string, unknown>): void {
  const own = new Set(action.options.map((o) => o.raw));
  for (const [key, value] of Object.entries(flags)) {
    if (key === "--") continue;
    if (cli.globalCommand.options.some((o) => o.names.includes(key))) continue;
    // `--save-file` and `--no-save-file` are two cac options with one key.
    const options = command.options.filter((o) => o.names.includes(key));
    if (options.some((o) => own.has(o.rawName))) continue;
    if (options.some((o) => o.config.default === value)) continue; // a default cac filled in, not the user
    const kebab = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const negated = options.some((o) => o.negated) && value === false;
    const shown = key.length === 1 ? `-${key}` : negated ? `--no-${kebab}` : `--${kebab}`;
    throw new UsageError(`option \`${shown}\` does not apply to \`svc pipeline ${action.name}\``);
  }
}

function optionLines(options: readonly { raw: string; description: string; fallback?: unknown }[]): string {
  const width = Math.max(...options.map((o) => o.raw.length));
  return options
    .map((o) => `  ${o.raw.padEnd(width)}  ${o.description}${o.fallback === undefined ? "" : ` (default: ${String(o.fallback)})`}`)
    .join("\n");
}

/**
 * cac's help callback: for `svc pipeline --help` it adds the list of actions; for
 * `svc pipeline <action> --help` it shows the action's usage and only its options.
 */
export function pipelineHelp(cli: CAC): (sections: Section[]) => Section[] {
  return (sections) => {
    if (cli.matchedCommand?.name !== "pipeline") return sections;
    const action = pipelineActions.find((a) => a.name === cli.args[0]);
    const at = sections.findIndex((s) => s.title === "Usage");
    if (!action) {
      const width = Math.max(...pipelineActions.map((a) => `${a.name} ${a.args.join(" ")}`.length));
      const actions: Section = {
        title: "Actions",
        body:
          pipelineActions.map((a) => `  ${`${a.name} ${a.args.join(" ")}`.padEnd(width)}  ${a.summary}`).join("\n") +
          "\n\n  Run `svc pipeline <action> --help` for an action's options.",
      };
      sections.splice(at + 1, 0, actions);
      // cac shows a negated flag's implicit default, "(default: true)", which reads backwards.
      for (const section of sections) {
        if (section.title === "Options") section.body = section.body.replace(/^(\s*--no-.*?) \(default: true\)$/gm, "$1");
      }
      return sections;
    }
    const globals = cli.globalCommand.options
      .filter((o) => o.name !== "version")
      .map((o) => ({ raw: o.rawName, description: o.description }));
    const own = action.options.map((o) => ({ raw: o.raw, description: o.description, fallback: o.config?.default }));
    const out: Section[] = [
      ...sections.slice(0, at),
      { title: "Usage", body: `  $ svc ${usageOf(action)}` },
      { body: action.summary },
      { title: "Options", body: optionLines([...own, ...globals]) },
    ];
    if (action.examples?.length) out.push({ title: "Examples", body: action.examples.map((e) => `  $ ${e}`).join("\n") });
    return out;
  };
}
