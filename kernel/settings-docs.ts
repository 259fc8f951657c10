/**
 * @module The settings table as Markdown (the docs' configuration table), and its replacement
 * between `<!-- settings:start -->` and `<!-- settings:end -->` in a document. A plugin's own
 * README can use the same function for its settings.
 */
import type { SettingRow } from "./settings-table.js";

export const SETTINGS_START = "<!-- settings:start -->";
export const SETTINGS_END = "<!-- settings:end -->";

export function settingsMarkdown(rows: readonly SettingRow[]): string {
  const lines = ["| Environment | Flag | Config key | Default | Declared by | Purpose |", "|---|---|---|---|---|---|"];
  for (const row of rows) {
    const env = [`\`${row.env}\``, ...(row.aliases?.length ? [`(also ${row.aliases.map((a) => `\`${a}\``).join(", ")})`] : [])].join(" ");
    const flag = row.flag ? `\`${row.command ? `${row.command} ` : ""}${row.flag}\`` : "";
    lines.push(`| ${env} | ${flag} | \`${row.key}\` | ${shownDefault(row)} | ${row.owner} | ${row.help} |`);
  }
  return lines.join("\n");
}

function shownDefault(row: SettingRow): string {
  if (row.shownDefault) return row.shownDefault;
  const value: unknown = row.default;
  if (value === undefined) return "unset";
  if (value === "" || (Array.isArray(value) && value.length === 0)) return "empty";
  return `\`${Array.isArray(value) ? JSON.stringify(value) : String(value)}\``;
}

/** `doc` with the table between the markers replaced; a document without both markers is an error. */
export function withSettingsTable(doc: string, rows: readonly SettingRow[]): string {
  const start = doc.indexOf(SETTINGS_START);
  const end = doc.indexOf(SETTINGS_END);
  if (start < 0 || end < start) throw new Error(`the document has no ${SETTINGS_START} … ${SETTINGS_END} markers`);
  return `${doc.slice(0, start + SETTINGS_START.length)}\n${settingsMarkdown(rows)}\n${doc.slice(end)}`;
}
