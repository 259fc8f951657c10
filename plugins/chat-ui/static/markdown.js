// Markdown for answers, which are untrusted. Three walls, in order:
// 1. Raw HTML in the answer never becomes markup: marked hands each piece of raw HTML to `html()`
//    below, which keeps only a few formatting tags written without attributes (and Open WebUI's
//    details block with its own inert attributes) and escapes the rest,
//    so no untrusted attribute (event handler, style, URL) reaches any document, not even the inert
//    one a sanitizer parses into (browsers check the page's CSP there too).
// 2. DOMPurify then cleans what marked built from Markdown syntax (javascript: links, for one),
//    links open in a new tab without access to this page, and code blocks get a copy button.
// 3. The page's Content-Security-Policy allows no inline script or style at all.
// The result is a DocumentFragment, never an HTML string handed to innerHTML.
import { Marked } from "./vendor/marked.js";
import DOMPurify from "./vendor/purify.js";

/** Tags an answer may write as raw HTML: formatting only, and only in their bare form (`<br>`, `</b>`). */
const BARE_TAG = /^<\/?(?:b|i|em|strong|u|s|del|ins|mark|small|sub|sup|kbd|code|br|hr|p|details|summary|blockquote)\s*\/?>$/i;
/** The details block of Open WebUI (svc's `createDetailsTag`): only its own inert attributes. */
const DETAILS_TAG = /^<details(?:\s+(?:type="[^"<>]*"|done="(?:true|false)"|open))*\s*>$/i;
const keptTag = (part) => BARE_TAG.test(part) || DETAILS_TAG.test(part);

const escapeHtml = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Raw HTML as the reader should see it: bare formatting tags kept, every other tag shown as text. */
function rawHtml({ text }) {
  return text
    .split(/(<[^<>]*>)/)
    .map((part) => (keptTag(part) ? part : escapeHtml(part)))
    .join("");
}

const marked = new Marked({ gfm: true, breaks: false, async: false, renderer: { html: rawHtml } });

const SANITIZE = {
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option"],
  FORBID_ATTR: ["style"],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.hasAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

const canCopy = () => !!(navigator.clipboard && window.isSecureContext);

function addCopyButtons(fragment) {
  if (!canCopy()) return;
  for (const pre of fragment.querySelectorAll("pre")) {
    const code = pre.querySelector("code") ?? pre;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(code.textContent ?? "").then(
        () => (button.textContent = "Copied"),
        () => (button.textContent = "Copy failed"),
      );
      setTimeout(() => (button.textContent = "Copy"), 1500);
    });
    pre.classList.add("has-copy");
    pre.append(button);
  }
}

/** @param {string} text Markdown (with the HTML Markdown allows) @returns {DocumentFragment} */
export function renderMarkdown(text) {
  const fragment = DOMPurify.sanitize(marked.parse(text), SANITIZE);
  addCopyButtons(fragment);
  return fragment;
}
