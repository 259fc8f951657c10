/**
 * @module OpenAI's Files API: `POST /v1/files` (multipart `file` and `purpose`), `GET /v1/files`,
 * `GET /v1/files/{id}`, `GET /v1/files/{id}/content` and `DELETE /v1/files/{id}` (and the same
 * without `/v1`). Chat and Responses requests then reference an upload by its id (file-parts.ts).
 * The store is chosen on first use: a host's `FILE_STORE`, else the object store when
 * svc:object-store is loaded (shared by workers and hosts with its Redis backend), else memory.
 * A deployed wrapper with `runFileUpload` takes uploads over (file-upload-handlers.ts).
 * With svc:auth, a file belongs to the key that uploaded it: other keys neither list, read, delete
 * nor use it (404, as for an unknown id); an admin key sees every file. Without auth, files are shared.
 */
import { basename } from "node:path";
import * as v from "valibot";
import { DEPLOY_STATE, HttpError, OBJECT_STORE, ownedBy, parseOr400, readMultipart, token, type PluginApi, type RequestContext } from "svc/plugin";
import { MemoryFileStore, fileObject, type FileStore } from "./file-store.js";
import { ObjectFileStore } from "./object-file-store.js";
import { contentTypeOf } from "./content-type.js";
import type { FileUploadHandlers } from "./file-upload-handlers.js";
import type { openaiSettings } from "./settings.js";

/** Register a FileStore under this token (before the plugin's first request) to keep files elsewhere. */
export const FILE_STORE = token<FileStore>("openai.file-store");

/** OpenAI's purposes; `user_data` is the one for files a chat refers to. */
export const FILE_PURPOSES = ["assistants", "batch", "fine-tune", "vision", "user_data", "evals"] as const;

const FileObject = v.object({
  id: v.pipe(v.string(), v.description("`file-` and 24 hex digits")),
  object: v.literal("file"),
  bytes: v.number(),
  created_at: v.pipe(v.number(), v.description("Unix seconds")),
  filename: v.string(),
  purpose: v.string(),
  status: v.literal("processed"),
  expires_at: v.pipe(v.nullable(v.number()), v.description("Unix seconds (SERVICE_FILES_TTL after the upload); null: kept until deleted")),
  status_details: v.null(),
});

const FileList = v.object({
  object: v.literal("list"),
  data: v.array(FileObject),
  first_id: v.nullable(v.string()),
  last_id: v.nullable(v.string()),
  has_more: v.boolean(),
});

const Deleted = v.object({ id: v.string(), object: v.literal("file"), deleted: v.literal(true) });

const ListQuery = v.object({
  purpose: v.optional(v.string()),
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(10_000)), "10000"),
  order: v.optional(v.picklist(["asc", "desc"]), "desc"),
  after: v.optional(v.string()),
});

/** The plugin's file store, created on first use (so a server that takes no uploads keeps none). */
export function fileStoreOf(kernel: PluginApi<typeof openaiSettings>): () => FileStore {
  let store: FileStore | undefined;
  return () => {
    if (store) return store;
    const { settings } = kernel;
    const hosts = kernel.optional(FILE_STORE);
    const objects = kernel.optional(OBJECT_STORE);
    if (hosts) store = hosts;
    else if (objects) store = new ObjectFileStore(objects, settings.filesTtl);
    else {
      store = new MemoryFileStore(settings.filesMaxTotalBytes, settings.filesTtl);
      // Several processes (`--workers`, or hosts sharing a Redis deploy state) would each keep their own.
      const mode = kernel.optional(DEPLOY_STATE)?.health().mode;
      if (mode && mode !== "single") {
        kernel.log.warn("Uploaded files are kept in each process's memory: with --workers > 1 or several instances load svc:object-store (Redis backend) so every process sees them");
      }
    }
    kernel.log.debug(`File store: ${store.kind}`);
    return store;
  };
}

export function registerFileRoutes(kernel: PluginApi<typeof openaiSettings>, storeOf: () => FileStore, handlers?: FileUploadHandlers): void {
  const maxFileBytes = kernel.settings.filesMaxFileBytes;
  const tags = ["openai"];
  const found = async (c: RequestContext) => {
    const record = await storeOf().info(c.params.id!);
    if (!record || !ownedBy(record.owner, c.state.principal)) throw noSuchFile(c.params.id!);
    return record;
  };

  const upload = async (c: RequestContext) => {
    // Room for the purpose field and the part headers around the file.
    const limits = { maxFileBytes, maxTotalBytes: maxFileBytes + 64 * 1024, maxFiles: 1, maxParts: kernel.settings.maxMultipartParts, idleMs: kernel.settings.bodyTimeout * 1000 };
    const form = await readMultipart(c.req, limits, "file");
    const file = form.files[0];
    if (!file) throw new HttpError(400, "Missing required parameter: 'file' (a multipart file part named 'file').");
    const purpose = form.fields.get("purpose")?.at(-1);
    if (!purpose) throw new HttpError(400, "Missing required parameter: 'purpose'.");
    if (!(FILE_PURPOSES as readonly string[]).includes(purpose)) {
      throw new HttpError(400, `Invalid value for 'purpose': '${purpose}'. Expected one of ${FILE_PURPOSES.join(", ")}.`);
    }
    if (file.size === 0) throw new HttpError(400, `The file '${file.filename}' is empty.`);
    const filename = basename(file.filename.replaceAll("\\", "/")).slice(0, 255) || "upload";
    const contentType = contentTypeOf(file.contentType, filename);
    const handler = handlers?.current();
    if (handler) return handlers!.upload(c, handler, { filename, contentType, data: file.data, purpose });
    const owner = c.state.principal?.id;
    const record = await storeOf().put({ filename, purpose, contentType, data: file.data, owner });
    return fileObject(record);
  };

  const list = async (c: RequestContext) => {
    const query = parseOr400(ListQuery, c.query);
    const principal = c.state.principal;
    let records = (await storeOf().list()).filter((r) => ownedBy(r.owner, principal) && (!query.purpose || r.purpose === query.purpose));
    if (query.order === "desc") records = records.reverse();
    if (query.after) {
      const at = records.findIndex((r) => r.id === query.after);
      records = at === -1 ? [] : records.slice(at + 1);
    }
    const page = records.slice(0, query.limit).map(fileObject);
    return { object: "list", data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: records.length > page.length };
  };

  const content = async (c: RequestContext) => {
    const file = await storeOf().read(c.params.id!);
    if (!file || !ownedBy(file.record.owner, c.state.principal)) throw noSuchFile(c.params.id!);
    // Never the uploaded type: an HTML upload must not run as a page of this origin.
    c.res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": String(file.data.length),
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.record.filename)}`,
      "x-content-type-options": "nosniff",
    });
    c.res.end(file.data);
  };

  const remove = async (c: RequestContext) => {
    const id = c.params.id!;
    await found(c);
    if (!(await storeOf().delete(id))) throw noSuchFile(id);
    return { id, object: "file", deleted: true };
  };

  for (const [prefix, suffix] of [
    ["/v1", ""],
    ["", "_unversioned"],
  ] as const) {
    const docs = (operationId: string, summary: string, response?: v.GenericSchema) => ({ operationId: operationId + suffix, summary, tags, response });
    kernel.route("POST", `${prefix}/files`, upload, {
      scope: "run",
      docs: docs("upload_file", "Upload a file (multipart: `file`, `purpose`) for chat and Responses requests to refer to", FileObject),
    });
    kernel.route("GET", `${prefix}/files`, list, { scope: "run", docs: docs("list_files", "List uploaded files (query: purpose, limit, order, after)", FileList) });
    kernel.route("GET", `${prefix}/files/:id`, async (c) => fileObject(await found(c)), { scope: "run", docs: docs("retrieve_file", "An uploaded file's object", FileObject) });
    kernel.route("GET", `${prefix}/files/:id/content`, content, { scope: "run", docs: docs("download_file", "An uploaded file's bytes") });
    kernel.route("DELETE", `${prefix}/files/:id`, remove, { scope: "run", docs: docs("delete_file", "Delete an uploaded file", Deleted) });
  }
}

export function noSuchFile(id: string): HttpError {
  return new HttpError(404, `No such File object: ${id}`);
}
