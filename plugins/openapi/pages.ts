/**
 * @module The two documentation pages, Swagger UI (`/docs`) and ReDoc (`/redoc`). Every URL is
 * local and prefixed with the root path; the init code lives in served scripts (no inline
 * script), so the Content-Security-Policy allows scripts from 'self' only.
 */

/** The docs pages' policy. Both UIs set inline styles; ReDoc runs its search index in a blob worker. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

/** Starts Swagger UI on the element's `data-spec-url`; no validator badge (it calls a remote service). */
export const SWAGGER_INIT = `"use strict";
(function () {
  var el = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: el.getAttribute("data-spec-url"),
    domNode: el,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
`;

/** Starts ReDoc on the element's `data-spec-url`. */
export const REDOC_INIT = `"use strict";
(function () {
  var el = document.getElementById("redoc");
  Redoc.init(el.getAttribute("data-spec-url"), {}, el);
})();
`;

function escapeAttr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

interface PageParts {
  readonly title: string;
  readonly id: string;
  readonly styles: readonly string[];
  readonly scripts: readonly string[];
}

function page(rootPath: string, parts: PageParts): string {
  const asset = (file: string) => escapeAttr(`${rootPath}/docs-assets/${file}`);
  const styles = parts.styles.map((f) => `\n    <link rel="stylesheet" href="${asset(f)}">`).join("");
  const scripts = parts.scripts.map((f) => `\n    <script src="${asset(f)}"></script>`).join("");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeAttr(parts.title)}</title>
    <link rel="icon" href="data:,">${styles}
  </head>
  <body style="margin: 0">
    <div id="${parts.id}" data-spec-url="${escapeAttr(`${rootPath}/openapi.json`)}"></div>${scripts}
  </body>
</html>
`;
}

export function swaggerPage(rootPath: string, title: string): string {
  return page(rootPath, {
    title: `${title} - Swagger UI`,
    id: "swagger-ui",
    styles: ["swagger-ui.css"],
    scripts: ["swagger-ui-bundle.js", "swagger-init.js"],
  });
}

export function redocPage(rootPath: string, title: string): string {
  return page(rootPath, { title: `${title} - ReDoc`, id: "redoc", styles: [], scripts: ["redoc.standalone.js", "redoc-init.js"] });
}
