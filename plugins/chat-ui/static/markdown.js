// Markdown for answers, which are untrusted: marked turns the text into HTML, DOMPurify removes
// everything that could run script (event handlers, javascript: URLs, <script>, <iframe>, forms,
// inline styles), links open in a new tab without access to this page, and code blocks get a copy
// button. The result is a DocumentFragment, never an HTML string handed to innerHTML.
import { Marked } from "./vendor/marked.js";
import DOMPurify from "./vendor/purify.js";

const marked = new Marked({ gfm: true, breaks: false, async: false });

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
