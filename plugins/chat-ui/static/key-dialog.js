// The key prompt: a modal dialog asking for the server's API key, with the reason it is asked
// (no key yet, a key the server refused, a key without the right) and a note on where the key is
// kept. Requests that are refused while it is open wait for the same answer.
import { rememberKey } from "./api-key.js";

export class KeyDialog {
  /** @param {HTMLDialogElement} dialog the page's `#key-dialog` */
  constructor(dialog) {
    this.dialog = dialog;
    this.form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
    this.input = /** @type {HTMLInputElement} */ (dialog.querySelector("#key-input"));
    this.message = /** @type {HTMLElement} */ (dialog.querySelector("#key-message"));
    /** @type {((entered: boolean) => void) | null} */
    this.settle = null;
    /** @type {Promise<boolean> | null} */
    this.pending = null;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const key = this.input.value.trim();
      if (!key) return;
      rememberKey(key);
      this.finish(true);
    });
    dialog.querySelector("#key-cancel")?.addEventListener("click", () => this.finish(false));
    // Escape closes a modal dialog: the same as Cancel.
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      this.finish(false);
    });
  }

  /**
   * Asks for a key, saying why; resolves true once one was entered (and remembered), false when
   * the person cancelled. A second call while the dialog is open updates the reason and shares
   * the answer.
   * @param {string} reason shown above the field ("" for none)
   * @param {boolean} refused the reason is a refusal (shown as an error)
   */
  ask(reason, refused = false) {
    this.message.textContent = reason;
    this.message.hidden = reason === "";
    this.message.classList.toggle("error", refused);
    if (this.pending) return this.pending;
    this.pending = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.input.value = "";
    this.dialog.showModal();
    this.input.focus();
    return this.pending;
  }

  /** @param {boolean} entered */
  finish(entered) {
    const settle = this.settle;
    this.settle = null;
    this.pending = null;
    this.input.value = "";
    if (this.dialog.open) this.dialog.close();
    settle?.(entered);
  }
}
