/**
 * @module The keys file (`SERVICE_AUTH_KEYS_FILE`, YAML or JSON): `keys:` a list of
 * `{name, hash, scopes, pipelines?}`, hashes only. It is validated whole; it is re-read when it
 * changes (checked once a second), and a change that does not validate keeps the keys in force and
 * is logged, so a typo never opens or closes the service by accident. A file that is deleted or
 * emptied (an editor's truncate-then-write, a bad deploy) is no valid file either: the keys in force
 * stay, with an error logged, until a valid file appears; `keys: []` revokes every key.
 */
import { watchFile, unwatchFile } from "node:fs";
import { readFile, writeFile, rename, stat } from "node:fs/promises";
import { dirname, join, basename } from "node:path";
import * as v from "valibot";
import YAML from "yaml";
import { formatIssues, type Logger } from "svc/plugin";
import { KEY_SCOPES, type ApiKey } from "./api-keys.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

export const KeyFileSchema = v.object({
  keys: v.pipe(
    v.array(
      v.strictObject({
        name: v.pipe(v.string(), v.regex(NAME, "a name of letters, digits, '_', '.', '@' or '-'")),
        hash: v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, "'sha256:' and 64 hex digits")),
        scopes: v.pipe(v.array(v.picklist(KEY_SCOPES)), v.minLength(1, "at least one scope")),
        pipelines: v.optional(v.array(v.string())),
      }),
    ),
    v.check((keys) => new Set(keys.map((k) => k.name)).size === keys.length, "key names must be unique"),
  ),
});

export type KeyFileContent = v.InferOutput<typeof KeyFileSchema>;

/** Reads and validates a keys file; a missing file is an empty list (keys are added by the CLI). */
export async function readKeyFile(path: string): Promise<ApiKey[]> {
  const text = await readKeyText(path);
  return text === undefined ? [] : parseKeyText(text, path);
}

/** The file's text; undefined when there is no file. */
async function readKeyText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function parseKeyText(text: string, path: string): ApiKey[] {
  let data: unknown;
  try {
    data = path.endsWith(".json") ? JSON.parse(text) : YAML.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message}`);
  }
  return checkKeys(data ?? { keys: [] }, path);
}

/** The keys of a keys file's content, validated; `source` names it in the error. */
export function checkKeys(data: unknown, source: string): ApiKey[] {
  const parsed = v.safeParse(KeyFileSchema, data);
  if (!parsed.success) throw new Error(`${source}: ${formatIssues(parsed.issues)}`);
  return parsed.output.keys;
}

/** Writes the file whole through a temporary file and a rename, readable by its owner only. */
export async function writeKeyFile(path: string, keys: readonly ApiKey[]): Promise<void> {
  const content: KeyFileContent = { keys: keys.map((k) => ({ ...k, scopes: [...k.scopes], pipelines: k.pipelines && [...k.pipelines] })) };
  const text = path.endsWith(".json") ? `${JSON.stringify(content, null, 2)}\n` : YAML.stringify(content);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, path);
}

/** The keys in force, kept current with the file. */
export class KeyFile {
  private current: readonly ApiKey[] = [];

  private constructor(
    readonly path: string,
    private readonly log: Logger,
  ) {}

  /** Loads the file (a broken one stops startup) and follows its changes. */
  static async open(path: string, log: Logger): Promise<KeyFile> {
    const file = new KeyFile(path, log);
    file.current = await readKeyFile(path);
    watchFile(path, { interval: 1000, persistent: false }, file.onChange);
    return file;
  }

  get keys(): readonly ApiKey[] {
    return this.current;
  }

  close(): void {
    unwatchFile(this.path, this.onChange);
  }

  /** Reads the file again now (the watcher does this within a second of a change). */
  async reload(): Promise<void> {
    try {
      const text = await readKeyText(this.path);
      if (text === undefined || text.trim() === "") {
        this.log.error(
          `API keys file ${this.path} is ${text === undefined ? "gone" : "empty"}: the ${this.current.length} key(s) in force stay until a valid file appears ` +
            "(to revoke every key, write 'keys: []').",
        );
        return;
      }
      this.current = parseKeyText(text, this.path);
      this.log.info(`API keys reloaded from ${this.path}: ${this.current.length} key(s)`);
    } catch (error) {
      this.log.error(`API keys not reloaded, the previous ones stay in force: ${(error as Error).message}`);
    }
  }

  private readonly onChange = () => void stat(this.path).then(() => this.reload(), () => this.reload());
}
