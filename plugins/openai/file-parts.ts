/**
 * @module The files a chat or Responses request refers to, as the wrapper's `ctx.files`. Chat
 * completion messages carry `{type: "file", file: {file_id}}` or `{type: "file", file:
 * {file_data, filename}}` parts; Responses input items `{type: "input_file", file_id}` or
 * `{type: "input_file", file_data, filename}`. An id is read from the file store (404 when unknown
 * or expired, or uploaded by another API key); `file_data` is a base64 data URL (or bare base64). Each file id counts once, in the
 * order of first mention. Other parts (`file_url`, images) are left to the wrapper, in the request.
 */
import { HttpError, UploadedFile, extensionOf, ownedBy, type Principal } from "svc/plugin";
import { contentTypeOf } from "./content-type.js";
import type { FileStore } from "./file-store.js";
import { noSuchFile } from "./files.js";

/** A file a message referred to: `id` is its upload's id, absent for inline `file_data`. */
export class ChatFile extends UploadedFile {
  constructor(filename: string, contentType: string, data: Buffer, readonly id?: string) {
    super(filename, contentType, data);
  }
}

type FileRef = { id: string } | { data: string; filename?: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function refOf(source: Record<string, unknown>): FileRef | undefined {
  if (typeof source.file_id === "string" && source.file_id) return { id: source.file_id };
  if (typeof source.file_data === "string") return { data: source.file_data, filename: typeof source.filename === "string" ? source.filename : undefined };
  return undefined;
}

/** The refs of every part `refOfPart` recognises in the items' (messages') content lists, in order. */
function refsIn(items: readonly unknown[], refOfPart: (part: Record<string, unknown>) => FileRef | undefined): FileRef[] {
  const refs: FileRef[] = [];
  for (const item of items) {
    if (!isObject(item) || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      const ref = isObject(part) ? refOfPart(part) : undefined;
      if (ref) refs.push(ref);
    }
  }
  return refs;
}

/** The file parts of chat messages (`{type: "file", file: {…}}`), in order. */
export const chatFileRefs = (messages: readonly unknown[]): FileRef[] =>
  refsIn(messages, (part) => (part.type === "file" && isObject(part.file) ? refOf(part.file) : undefined));

/** The `input_file` parts of Responses input items, in order. */
export const responseFileRefs = (items: readonly unknown[]): FileRef[] => refsIn(items, (part) => (part.type === "input_file" ? refOf(part) : undefined));

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function inlineFile(ref: { data: string; filename?: string }, index: number, maxBytes: number): ChatFile {
  const match = DATA_URL.exec(ref.data);
  const payload = (match ? match[3]! : ref.data).replace(/\s+/g, "");
  if (match && !/;base64/i.test(match[2]!)) throw new HttpError(400, "Invalid 'file_data': a data URL must be base64 (data:<type>;base64,…).");
  if (payload === "" || !BASE64.test(payload)) throw new HttpError(400, "Invalid 'file_data': expected a base64 data URL (data:<type>;base64,…) or base64 text.");
  const data = Buffer.from(payload, "base64");
  if (data.length > maxBytes) throw new HttpError(413, `An inline file exceeds the limit of ${maxBytes} bytes (SERVICE_FILES_MAX_FILE_BYTES).`);
  const sent = match?.[1] ?? "";
  const filename = ref.filename || `file-${index + 1}${extensionOf(sent || "application/octet-stream")}`;
  return new ChatFile(filename, contentTypeOf(sent, filename), data);
}

/**
 * The files `refs` name, read from `store` (created only when an id needs it). Ids are read in
 * parallel; an unknown one, or another caller's (`principal`), is a 404 naming it — unless
 * `ownIds`: the pipeline took the uploads over (`runFileUpload`) and resolves its own ids from the
 * request, so ids svc's store does not know are left to it.
 */
export async function resolveFiles(refs: readonly FileRef[], store: () => FileStore, maxBytes: number, ownIds = false, principal?: Principal): Promise<ChatFile[]> {
  const seen = new Set<string>();
  const pending = refs.flatMap((ref, index): Promise<ChatFile | undefined>[] => {
    if (!("id" in ref)) return [Promise.resolve(inlineFile(ref, index, maxBytes))];
    if (seen.has(ref.id)) return [];
    seen.add(ref.id);
    return [
      store()
        .read(ref.id)
        .then((file) => {
          if (!file) {
            if (ownIds) return undefined;
            throw noSuchFile(ref.id);
          }
          if (!ownedBy(file.record.owner, principal)) throw noSuchFile(ref.id);
          return new ChatFile(file.record.filename, file.record.content_type, file.data, file.record.id);
        }),
    ];
  });
  return (await Promise.all(pending)).filter((file): file is ChatFile => file !== undefined);
}
