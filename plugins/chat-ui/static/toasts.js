// Notification events as toasts: one per event, styled by level (info, success, warning, error),
// dismissed by their button or after a while (errors stay longer). At most four are shown.
const LEVELS = new Set(["info", "success", "warning", "error"]);
const MAX_TOASTS = 4;

/** @param {HTMLElement} container @param {string} level @param {string} text */
export function showToast(container, level, text) {
  const kind = LEVELS.has(level) ? level : "info";
  const toast = document.createElement("div");
  toast.className = `toast ${kind}`;
  if (kind === "error") toast.setAttribute("role", "alert");
  const message = document.createElement("span");
  message.className = "toast-text";
  message.textContent = String(text ?? "");
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", "Dismiss notification");
  close.textContent = "×";
  const remove = () => toast.remove();
  close.addEventListener("click", remove);
  toast.append(message, close);
  container.append(toast);
  while (container.children.length > MAX_TOASTS) container.firstElementChild?.remove();
  setTimeout(remove, kind === "error" ? 12_000 : 6_000);
  return toast;
}
