/**
 * @module `load_skill`: returns one of the bundled skill guides (markdown with a `name` and a
 * `description` in its front matter) by name. The tool's prompt lists the skills, so a model
 * knows which exist before it asks.
 */
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { ToolError } from "svc/object-store";
import type { BaseTool } from "../tool-config.js";
import { skillsDir } from "./bundled-files.js";
import { text } from "./common.js";

export interface Skill {
  name: string;
  description: string;
  file: string;
}

/** Name and description from the front matter; without one, the file name and no description. */
function skillOf(file: string): Skill {
  const content = readFileSync(file, "utf8");
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(content)?.[1];
  let meta: Record<string, unknown> = {};
  try {
    meta = (front && parseYaml(front)) || {};
  } catch {
    // A malformed front matter falls back like a missing one.
  }
  return { name: String(meta.name ?? basename(file, ".md")), description: String(meta.description ?? ""), file };
}

/** The skills in `dir`, by name. */
export function discoverSkills(dir = skillsDir()): Map<string, Skill> {
  if (!dir) return new Map();
  const files = readdirSync(dir).filter((f) => f.endsWith(".md")).sort();
  return new Map(files.map((f) => skillOf(join(dir, f))).map((s) => [s.name, s]));
}

function prompt(skills: Map<string, Skill>): string {
  const list = skills.size ? [...skills.values()].map((s) => `    - ${s.name}: ${s.description}`).join("\n") : "    (no skills are currently available)";
  return `Loads the full text of a bundled skill guide by name: step-by-step instructions for a task on the platform.

Available skills:
${list}`;
}

const SKILLS = discoverSkills();

export const loadSkill: BaseTool = {
  name: "load_skill",
  description: prompt(SKILLS),
  parameters: { skill_name: text("The name of the skill to load (see the list above).") },
  async run(args) {
    const skill = SKILLS.get(args.skill_name as string);
    if (!skill) throw new ToolError(`Error: Skill '${args.skill_name}' not found. Available skills: ${[...SKILLS.keys()].sort().join(", ") || "none"}`);
    return readFileSync(skill.file, "utf8");
  },
};
