/**
 * @module The docs pages' assets under `/docs-assets/<file>`: Swagger UI from `swagger-ui-dist`,
 * ReDoc's standalone bundle from `redoc` (vendored into the published package), and the two init scripts. Only these files are served
 * (nothing else of the packages); each is read once, on first request, and kept in memory with an
 * ETag and a gzip copy. Source-map comments are dropped and ReDoc's remote logo is replaced, so a
 * page never asks for anything off this server.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { gzip as gzipCallback } from "node:zlib";
import { HttpError, type PluginApi, type RequestContext } from "svc/plugin";
import { REDOC_INIT, SWAGGER_INIT } from "./pages.js";

export const ASSETS_PATH = "/docs-assets";

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";
/** One day; the ETag revalidates after that (file names carry no version). */
const CACHE_CONTROL = "public, max-age=86400";

interface AssetSource {
  readonly type: string;
  /** Package and path inside it, or literal text. */
  readonly pkg?: string;
  readonly file?: string;
  readonly text?: string;
  readonly rewrite?: (text: string) => string;
}

interface LoadedAsset {
  readonly type: string;
  readonly body: Buffer;
  readonly etag: string;
  gzip?: Promise<Buffer>;
}

const gzip = promisify(gzipCallback);

/** Drops a trailing source-map comment (JS `//# sourceMappingURL=…` or its CSS form): maps are not served. */
const dropSourceMap = (text: string) => text.replace(/\n(?:\/\/# sourceMappingURL=\S+|\/\*# sourceMappingURL=\S+?\s*\*\/)\s*$/, "\n");
/** ReDoc's sidebar shows a logo from its CDN; an empty data URL makes the image hide itself. */
const localRedoc = (text: string) => dropSourceMap(text).replaceAll("https://cdn.redoc.ly/redoc/logo-mini.svg", "data:,");

export const ASSETS: Readonly<Record<string, AssetSource>> = {
  "swagger-ui.css": { type: CSS, pkg: "swagger-ui-dist", file: "swagger-ui.css", rewrite: dropSourceMap },
  "swagger-ui-bundle.js": { type: JS, pkg: "swagger-ui-dist", file: "swagger-ui-bundle.js", rewrite: dropSourceMap },
  "swagger-init.js": { type: JS, text: SWAGGER_INIT },
  "redoc.standalone.js": { type: JS, pkg: "redoc", file: "bundles/redoc.standalone.js", rewrite: localRedoc },
  "redoc-init.js": { type: JS, text: REDOC_INIT },
};

const require = createRequire(import.meta.url);
/**
 * The published package carries ReDoc's bundle here (scripts/vendor-assets.mjs) instead of depending
 * on `redoc`, whose library dependencies the bundle does not need; a checkout reads node_modules.
 */
const vendored = (pkg: string) => fileURLToPath(new URL(`./vendor/${pkg}`, import.meta.url));

async function load(source: AssetSource): Promise<LoadedAsset> {
  let text = source.text;
  if (text === undefined) {
    const root = existsSync(vendored(source.pkg!)) ? vendored(source.pkg!) : dirname(require.resolve(`${source.pkg}/package.json`));
    text = await readFile(join(root, source.file!), "utf8");
  }
  const body = Buffer.from(source.rewrite ? source.rewrite(text) : text);
  return { type: source.type, body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
}

function accepts(header: string | string[] | undefined, encoding: string): boolean {
  return String(header ?? "")
    .split(",")
    .some((part) => {
      const [name, ...params] = part.split(";").map((p) => p.trim());
      return name === encoding && !params.some((p) => /^q=0(\.0*)?$/.test(p));
    });
}

/** Registers `GET /docs-assets/:file`, kept out of the OpenAPI document. */
export function registerAssets(kernel: PluginApi): void {
  const loaded = new Map<string, Promise<LoadedAsset>>();
  const get = (name: string): Promise<LoadedAsset> => {
    let asset = loaded.get(name);
    if (!asset) {
      asset = load(ASSETS[name]!);
      // a failed read (package missing) is retried on the next request
      asset.catch(() => loaded.delete(name));
      loaded.set(name, asset);
    }
    return asset;
  };

  kernel.route(
    "GET",
    `${ASSETS_PATH}/:file`,
    async (c: RequestContext) => {
      const name = c.params.file!;
      if (!Object.hasOwn(ASSETS, name)) throw new HttpError(404, `No docs asset '${name}'`);
      const asset = await get(name);
      const headers: Record<string, string | number> = {
        "content-type": asset.type,
        "cache-control": CACHE_CONTROL,
        etag: asset.etag,
        vary: "accept-encoding",
        "x-content-type-options": "nosniff",
      };
      if (c.req.headers["if-none-match"] === asset.etag) {
        c.res.writeHead(304, headers).end();
        return;
      }
      let body = asset.body;
      if (body.length > 1024 && accepts(c.req.headers["accept-encoding"], "gzip")) {
        body = await (asset.gzip ??= gzip(asset.body));
        headers["content-encoding"] = "gzip";
      }
      c.res.writeHead(200, { ...headers, "content-length": body.length }).end(body);
    },
    { docs: false },
  );
}
