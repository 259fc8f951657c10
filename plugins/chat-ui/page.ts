/**
 * @module The chat page: a small HTML shell whose URLs carry the root path, so it works behind a
 * proxy that strips `--root-path`. Configuration travels in `data-` attributes (no inline script),
 * and the Content-Security-Policy allows scripts, styles, images and requests from this server only.
 */

/** No inline scripts or styles, nothing from another origin; images only from here or data: URLs. */
export const CHAT_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join("; ");

export interface PageOptions {
  /** Where the UI's files are, as the browser sees it: root path + UI path. */
  readonly assetBase: string;
  /** Prefix of the API routes as the browser sees them: the root path ("" or "/svc"). */
  readonly apiBase: string;
  readonly defaultModel?: string;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function chatPage(options: PageOptions): string {
  const asset = (file: string) => escapeAttr(`${options.assetBase}/${file}`);
  const model = options.defaultModel ? ` data-default-model="${escapeAttr(options.defaultModel)}"` : "";
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
    <meta name="color-scheme" content="light dark">
    <title>svc chat</title>
    <link rel="icon" href="${asset("favicon.svg")}" type="image/svg+xml">
    <link rel="stylesheet" href="${asset("chat.css")}">
    <link rel="stylesheet" href="${asset("answer.css")}">
    <script type="module" src="${asset("app.js")}"></script>
  </head>
  <body data-api-base="${escapeAttr(options.apiBase)}"${model}>
    <div class="app">
      <header class="bar">
        <h1 class="title">svc chat</h1>
        <select id="model" class="picker" aria-label="Pipeline" disabled>
          <option value="">Loading pipelines…</option>
        </select>
        <button type="button" id="key-button" class="button ghost" hidden>API key</button>
        <button type="button" id="new-chat" class="button ghost">New chat</button>
      </header>
      <main id="log" class="log" aria-label="Conversation">
        <div id="messages" class="messages" role="log" aria-live="polite"></div>
        <p id="empty" class="empty">Pick a pipeline and send a message.</p>
      </main>
      <button type="button" id="jump" class="jump" aria-label="Scroll to the latest message" hidden>↓</button>
      <form id="composer" class="composer">
        <div id="attachments" class="attachments" aria-label="Attached files" hidden></div>
        <input type="file" id="file-input" multiple hidden>
        <button type="button" id="attach" class="button ghost attach" aria-label="Attach files" title="Attach files (or drop them here)">
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9"/></svg>
        </button>
        <textarea id="input" class="input" rows="1" aria-label="Message" placeholder="Message (Enter to send, Shift+Enter for a new line)" autocomplete="off"></textarea>
        <button type="submit" id="send" class="button primary">Send</button>
        <button type="button" id="stop" class="button danger" aria-label="Stop generating" hidden>Stop</button>
      </form>
    </div>
    <dialog id="key-dialog" class="key-dialog" aria-labelledby="key-title">
      <form id="key-form" class="key-form" novalidate>
        <h2 id="key-title" class="key-title">API key required</h2>
        <p id="key-message" class="key-message" role="alert" hidden></p>
        <label for="key-input" class="key-label">API key</label>
        <input type="password" id="key-input" class="key-input" autocomplete="off" spellcheck="false">
        <p class="key-note">Kept in this browser tab only (session storage) and sent to this server only.</p>
        <div class="key-actions">
          <button type="button" id="key-cancel" class="button ghost">Cancel</button>
          <button type="submit" id="key-submit" class="button primary">Use key</button>
        </div>
      </form>
    </dialog>
    <div id="toasts" class="toasts" role="status" aria-live="polite"></div>
    <noscript><p class="noscript">The chat needs JavaScript.</p></noscript>
  </body>
</html>
`;
}
