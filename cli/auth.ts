/**
 * @module `svc auth add-key NAME --scope run [--scope …] [--pipelines a,b] [--keys-file FILE]`:
 * makes a new API key for the svc:auth plugin, appends its hash to the keys file (created 0600 when
 * missing) and prints the key once: svc keeps only the hash, so a lost key is replaced, not found.
 * A running server picks the new key up within a second. (cac matches no multi-word command, so
 * `auth <action>` dispatches, like `pipeline <action>`.)
 */
import type { CAC } from "cac";
import { KEY_SCOPES, checkKeys, hashKey, newKey, readKeyFile, writeKeyFile, type KeyScope } from "../plugins/auth/index.js";
import { UsageError } from "./client.js";
import { success } from "./output.js";

interface AddKeyFlags {
  scope?: string | string[];
  pipelines?: string;
  keysFile?: string;
}

const list = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter(Boolean);

export async function addKey(name: string, flags: AddKeyFlags, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = flags.keysFile ?? env.SERVICE_AUTH_KEYS_FILE;
  if (!file) throw new UsageError("no keys file: pass --keys-file or set SERVICE_AUTH_KEYS_FILE");
  const scopes = list(flags.scope);
  if (scopes.length === 0) throw new UsageError(`give at least one --scope (${KEY_SCOPES.join(", ")})`);
  const unknown = scopes.filter((s) => !(KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new UsageError(`unknown scope ${unknown.join(", ")} (expected ${KEY_SCOPES.join(", ")})`);
  const keys = await readKeyFile(file);
  if (keys.some((k) => k.name === name)) throw new UsageError(`a key named '${name}' already exists in ${file}`);
  const key = newKey();
  const pipelines = list(flags.pipelines);
  const entry = { name, hash: hashKey(key), scopes: [...new Set(scopes)] as KeyScope[], ...(pipelines.length ? { pipelines } : {}) };
  let next;
  try {
    // Validated as the server will read it: a name the server would refuse is refused here.
    next = checkKeys({ keys: [...keys, entry] }, file);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  await writeKeyFile(file, next);
  return key;
}

export function registerAuthCommand(cli: CAC): void {
  cli
    .command("auth <action> <name>", "API keys of the svc:auth plugin: add-key")
    .usage("auth add-key <name> --scope run [--scope admin] [--pipelines a,b] [--keys-file FILE]")
    .option("--scope <scope>", `What the key may do: ${KEY_SCOPES.join(", ")} (repeatable)`, { type: [String] })
    .option("--pipelines <names>", "Pipelines a run key may run (comma-separated; default: all)")
    .option("--keys-file <file>", "The keys file (default: SERVICE_AUTH_KEYS_FILE)")
    .example("svc auth add-key ci-bot --scope run --pipelines summarize,qa --keys-file keys.yaml")
    .action(async (action: string, name: string, flags: AddKeyFlags) => {
      if (action !== "add-key") throw new UsageError(`unknown auth action '${action}' (expected add-key)`);
      const key = await addKey(name, flags);
      success(`Key '${name}' added to ${flags.keysFile ?? process.env.SERVICE_AUTH_KEYS_FILE}. It is shown only now:`);
      process.stdout.write(`${key}\n`);
    });
}
