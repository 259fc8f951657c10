/**
 * @module The UI's routes under the UI path (`/chat`): the page itself, the two vendor libraries,
 * and sirv over `static/` for the UI's own modules, styles and icon. Every answer carries the
 * page's Content-Security-Policy and `nosniff`; files revalidate by ETag (`no-cache`), so an
 * upgraded package is picked up at once. None of these routes is in the OpenAPI document.
 */
import type { ServerResponse } from "node:http";
import type { Middleware } from "polka";
import sirv from "sirv";
import type { PluginApi, RequestContext } from "svc/plugin";
import type { chatUiSettings } from "./settings.js";
import { HttpError } from "svc/plugin";
import { CHAT_UI_CSP, chatPage } from "./page.js";
import { staticDir } from "./static-dir.js";
import { VendorAssets } from "./vendor.js";

const COMMON_HEADERS = {
  "content-security-policy": CHAT_UI_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
} as const;

function setCommonHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
}

function acceptsGzip(header: string | string[] | undefined): boolean {
  return String(header ?? "")
    .split(",")
    .some((part) => {
      const [name, ...params] = part.split(";").map((p) => p.trim());
      return name === "gzip" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
    });
}

export function registerChatUi(kernel: PluginApi<typeof chatUiSettings>): void {
  const { chatUiPath: path, rootPath, chatUiDefaultModel } = kernel.settings;
  // An empty path would put sirv in front of every route of the server.
  if (path === "") throw new Error("SERVICE_CHAT_UI_PATH must be a path below the root, such as /chat");
  const page = Buffer.from(chatPage({ assetBase: `${rootPath}${path}`, apiBase: rootPath, defaultModel: chatUiDefaultModel }));
  const vendor = new VendorAssets();
  const hidden = { docs: false } as const;

  // `/chat` and `/chat/` both match: polka's patterns allow one trailing slash.
  kernel.route(
    "GET",
    path,
    (c: RequestContext) => {
      setCommonHeaders(c.res);
      c.res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.length }).end(page);
    },
    hidden,
  );

  kernel.route(
    "GET",
    `${path}/vendor/:file`,
    async (c: RequestContext) => {
      const pending = vendor.get(c.params.file!);
      if (!pending) throw new HttpError(404, `No chat UI file 'vendor/${c.params.file}'`);
      const asset = await pending;
      setCommonHeaders(c.res);
      c.res.setHeader("etag", asset.etag);
      c.res.setHeader("vary", "accept-encoding");
      if (c.req.headers["if-none-match"] === asset.etag) {
        c.res.writeHead(304).end();
        return;
      }
      const zipped = acceptsGzip(c.req.headers["accept-encoding"]);
      const body = zipped ? asset.gzip : asset.body;
      c.res
        .writeHead(200, {
          "content-type": "text/javascript; charset=utf-8",
          "content-length": body.length,
          ...(zipped ? { "content-encoding": "gzip" } : {}),
        })
        .end(body);
    },
    hidden,
  );

  const files = sirv(staticDir(), { etag: true, extensions: [], setHeaders: setCommonHeaders });
  // sirv answers any method; only reads reach it, the rest fall through to 404/405.
  const statics: Middleware = (req, res, next) => (req.method === "GET" || req.method === "HEAD" ? files(req, res, next) : next());
  kernel.use(path, statics);
}
