/**
 * @module `svc pipeline run <name>`: calls `POST /<name>/run`. Params (`--param key=<JSON value>`)
 * go as a JSON body; with `--file`/`--dir` the request is multipart, each file a `files` part and
 * each param a form field. `--stream` prints a streamed answer (text or SSE) as it arrives.
 * `--background` starts a stored run instead (`POST /<name>/runs`, svc:runs) and prints its id;
 * `--watch` then follows it as `svc runs watch` does.
 */
import type { IncomingMessage } from "node:http";
import { basename, resolve } from "node:path";
import { CliError, SvcClient, UsageError, contentType, ensureOk, readBytes, readText, runClientCommand } from "./client.js";
import { watchRun } from "./runs-watch.js";
import { appendFiles, listFolder, localFile, type LocalFile } from "./files.js";
import { booleanFlag, listFlag, stringFlag } from "./flags.js";
import { formatBytes, formatValue, print, success, warn } from "./output.js";
import type { PipelineAction } from "./pipeline.js";
import { SseParser, type SseEvent } from "./sse.js";

/** `key=value` pairs: split at the first `=`; the value is JSON when it parses, else the raw text. */
export function parseParams(params: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const param of params) {
    const at = param.indexOf("=");
    if (at <= 0) throw new CliError(`Invalid parameter format: '${param}'. Use key=<JSON value>, e.g. --param question='"Hi"' or --param n=3`);
    const raw = param.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // not JSON: the raw text is the value
    }
    out[param.slice(0, at)] = value;
  }
  return out;
}

/** A param as a form field: objects and arrays as JSON, everything else as text. */
function formValue(value: unknown): string {
  return value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
}

async function collectFiles(files: readonly string[], dirs: readonly string[]): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const seen = new Set<string>();
  const add = (file: LocalFile) => {
    const key = resolve(file.path);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(file);
  };
  for (const file of files) add(await localFile(file, basename(file)));
  for (const dir of dirs) {
    const found = await listFolder(dir);
    if (found.length === 0) throw new CliError(`No files found in ${dir} (dotfiles, dot-folders and node_modules are skipped)`);
    // Named by base name, as Hayhooks' CLI sends them: a run's files are documents, not a tree.
    for (const file of found) add({ ...file, name: basename(file.name) });
  }
  return out;
}

/** The data of each event, without the OpenAI-style `[DONE]` end marker. */
class SseData {
  private readonly parser = new SseParser();
  push(text: string): string[] {
    return dataOf(this.parser.push(text));
  }
  end(): string[] {
    return dataOf(this.parser.end());
  }
}

const dataOf = (events: readonly SseEvent[]): string[] => events.map((e) => e.data).filter((d) => d !== "[DONE]");

/** Prints a streamed answer as it arrives; returns the last character written. */
async function printStream(res: IncomingMessage, sse: boolean): Promise<string> {
  res.setEncoding("utf8");
  const parser = sse ? new SseData() : undefined;
  let last = "\n";
  const write = (text: string) => {
    if (!text) return;
    process.stdout.write(text);
    last = text.at(-1)!;
  };
  try {
    for await (const chunk of res) {
      if (parser) parser.push(chunk as string).forEach(write);
      else write(chunk as string);
    }
  } catch (error) {
    if (last !== "\n") process.stdout.write("\n");
    throw new CliError(`The stream from svc ended unexpectedly: ${(error as Error).message}`);
  }
  parser?.end().forEach(write);
  return last;
}

function fileName(res: IncomingMessage): string | undefined {
  const disposition = res.headers["content-disposition"] ?? "";
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!);
    } catch {
      // fall through to the plain filename
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1];
}

async function report(name: string, res: IncomingMessage, stream: boolean, url: string): Promise<void> {
  await ensureOk(res);
  const type = contentType(res);
  const streamed = type === "text/plain" || type === "text/event-stream";
  if (streamed && stream) {
    const last = await printStream(res, type === "text/event-stream");
    if (last !== "\n") process.stdout.write("\n");
    success(`Pipeline '${name}' executed successfully`);
    return;
  }
  if (streamed) {
    const text = await readText(res);
    warn("This pipeline streams its answer. Use --stream to see it as it arrives.");
    success(`Pipeline '${name}' executed successfully`);
    print(type === "text/event-stream" ? extractSse(text) : text);
    return;
  }
  if (type === "application/json" || type.endsWith("+json")) {
    const text = await readText(res);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CliError(`Unexpected answer from ${url}: invalid JSON (${text.slice(0, 120)})`);
    }
    success(`Pipeline '${name}' executed successfully`);
    const result = body && typeof body === "object" && !Array.isArray(body) && "result" in body ? (body as { result: unknown }).result : body;
    print(formatValue(result));
    return;
  }
  // A file answer: say what it is rather than writing binary data to the terminal.
  const data = await readBytes(res);
  const file = fileName(res);
  success(`Pipeline '${name}' executed successfully`);
  warn(
    `The pipeline answered a file${file ? ` '${file}'` : ""} (${type || "unknown type"}, ${formatBytes(data.length)}); ` +
      `download it with POST ${url}/${encodeURIComponent(name)}/run.`,
    process.stdout,
  );
}

/** Every event's data of a whole SSE text, concatenated. */
function extractSse(text: string): string {
  const parser = new SseData();
  return [...parser.push(text), ...parser.end()].join("");
}

/** `--background`: `POST /<name>/runs`, then the run's id (alone on the last line, for scripts) or, with `--watch`, its events. */
async function startBackground(client: SvcClient, name: string, params: Record<string, unknown>, watch: boolean): Promise<void> {
  const run = await client.json<{ id: string; status: string }>("POST", `/${encodeURIComponent(name)}/runs`, { json: params });
  success(`Background run of '${name}' started (${run.status}); follow it with \`svc runs watch ${run.id}\``);
  if (!watch) return print(run.id);
  await watchRun(client, run.id);
}

export async function runPipeline(name: string, flags: Record<string, unknown>): Promise<void> {
  const background = booleanFlag(flags, "background");
  if (booleanFlag(flags, "watch") && !background) throw new UsageError("--watch follows a background run: add --background");
  if (background && (listFlag(flags, "file").length > 0 || listFlag(flags, "dir").length > 0)) {
    throw new UsageError("--background takes a JSON body only (uploads are not stored with a run): drop --file/--dir, or run without --background");
  }
  if (background && booleanFlag(flags, "stream")) throw new UsageError("--stream does not apply to --background: use --watch to print the run's output as it comes");
  await runClientCommand(async () => {
    const params = parseParams(listFlag(flags, "param"));
    const client = SvcClient.fromSettings(process.cwd(), stringFlag(flags, "url"));
    if (background) return startBackground(client, name, params, booleanFlag(flags, "watch"));
    const files = await collectFiles(listFlag(flags, "file"), listFlag(flags, "dir"));
    let stream = booleanFlag(flags, "stream");
    const path = `/${encodeURIComponent(name)}/run`;
    const multipart = async () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(params)) form.append(key, formValue(value));
      await appendFiles(form, files);
      return client.send("POST", path, { form, label: `Uploading ${files.length} file${files.length === 1 ? "" : "s"}` });
    };
    let res: IncomingMessage;
    if (files.length > 0) {
      if (stream) {
        warn("Streaming is not supported with file uploads. Running without streaming.");
        stream = false;
      }
      res = await multipart();
    } else {
      res = await client.send("POST", path, { json: params });
      // A pipeline that takes files takes only multipart (415 for JSON), even when none are given:
      // the pipeline did not run, so the same params are sent again as form fields.
      if (res.statusCode === 415) {
        res.resume();
        res = await multipart();
      }
    }
    await report(name, res, stream, client.url);
  });
}

export const runAction: PipelineAction = {
  name: "run",
  args: ["<name>"],
  summary: "Run a deployed pipeline through POST /<name>/run and print its result",
  options: [
    {
      raw: "-p, --param <key=value>",
      description: "An input: key=<JSON value>; text that is not JSON is sent as a string (repeatable)",
      config: { type: [String] },
    },
    { raw: "-f, --file <file>", description: "Upload a file as a `files` part, named by its basename (repeatable)", config: { type: [String] } },
    { raw: "-d, --dir <dir>", description: "Upload every file of a folder and its subfolders, each named by its base name (repeatable)", config: { type: [String] } },
    { raw: "--stream", description: "Print a streamed answer as it arrives (not with file uploads)" },
    { raw: "--background", description: "Start a background run (POST /<name>/runs) and print its id; see `svc runs`" },
    { raw: "--watch", description: "With --background: follow the run and print its output; exits 0 completed, 1 failed, 2 cancelled" },
  ],
  examples: [
    `svc pipeline run chat --param question='"What is svc?"'`,
    "svc pipeline run chat -p question=Hello -p top_k=3 --stream",
    "svc pipeline run summarize --file report.pdf --param 'options={\"short\":true}'",
    "svc pipeline run research -p topic=batteries --background --watch",
  ],
  run: ([name], flags) => runPipeline(name!, flags),
};
