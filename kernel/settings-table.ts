/**
 * @module The one settings table of a kernel: the kernel's own settings and those of every loaded
 * plugin, merged at boot. Two owners may not declare the same key or environment name.
 */
import { kernelErrors } from "./errors.js";
import type { SettingField, SettingFields } from "./setting-field.js";

/** A table of settings and who declares it (`svc:kernel`, a plugin's name). */
export interface DeclaredSettings {
  readonly owner: string;
  readonly fields: SettingFields;
}

export interface SettingRow extends SettingField {
  readonly key: string;
  readonly owner: string;
}

/**
 * The merged rows in declaration order; a key or environment name declared twice is an error,
 * unless it is the same declaration (a plugin that reads another's settings spreads its table).
 */
export function mergeSettings(tables: readonly DeclaredSettings[]): SettingRow[] {
  const owners = new Map<string, string>();
  const declared = new Map<string, SettingField>();
  const rows: SettingRow[] = [];
  for (const { owner, fields } of tables) {
    for (const [key, field] of Object.entries(fields)) {
      if (declared.get(key) === field) continue;
      declared.set(key, field);
      for (const name of [key, field.env, ...(field.aliases ?? [])]) {
        const other = owners.get(name);
        if (other !== undefined && other !== owner) throw kernelErrors.settingDuplicate(name, owner, other);
        owners.set(name, owner);
      }
      rows.push({ ...field, key, owner });
    }
  }
  return rows;
}

/** Rows back to a table by key, as `loadSettings` reads it. */
export function fieldsOf(rows: readonly SettingRow[]): SettingFields {
  return Object.fromEntries(rows.map((row) => [row.key, row]));
}
