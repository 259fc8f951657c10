// Files attached to the next message: each is uploaded to the Files API as soon as it is picked
// and shown as a chip (name, size, state) with a remove button. Sending waits for the uploads and
// takes the files along as `{id, filename, bytes}`; a failed upload is dropped with a toast.
import { ChatError, deleteFile, uploadFile } from "./api.js";

/** "12 KB", "3.4 MB": a size a person reads at a glance. */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A chip for a file: its name, its size and an optional remove button. */
export function fileChip(name, bytes, onRemove) {
  const chip = document.createElement("span");
  chip.className = "chip";
  const label = document.createElement("span");
  label.className = "chip-name";
  label.textContent = name;
  label.title = name;
  const size = document.createElement("span");
  size.className = "chip-size";
  size.textContent = formatBytes(bytes);
  chip.append(label, size);
  if (onRemove) {
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "chip-remove";
    remove.setAttribute("aria-label", `Remove ${name}`);
    remove.textContent = "×";
    remove.addEventListener("click", onRemove);
    chip.append(remove);
  }
  return chip;
}

export class Attachments {
  /**
   * @param {HTMLElement} list where the chips go
   * @param {string} apiBase
   * @param {(message: string) => void} onError
   */
  constructor(list, apiBase, onError) {
    this.list = list;
    this.apiBase = apiBase;
    this.onError = onError;
    /** @type {Set<{upload: Promise<object | null>, chip: HTMLElement, controller: AbortController, removed: boolean}>} */
    this.pending = new Set();
  }

  get count() {
    return this.pending.size;
  }

  /** @param {Iterable<File>} files */
  add(files) {
    for (const file of files) {
      const controller = new AbortController();
      const entry = { upload: Promise.resolve(null), chip: fileChip(file.name, file.size, () => this.remove(entry)), controller, removed: false };
      entry.chip.classList.add("uploading");
      entry.upload = uploadFile(this.apiBase, file, controller.signal).then(
        (object) => {
          entry.chip.classList.remove("uploading");
          return { id: object.id, filename: object.filename, bytes: object.bytes };
        },
        (error) => {
          if (!entry.removed) this.onError(`Could not attach ${file.name}: ${error instanceof ChatError ? error.message : String(error)}`);
          this.drop(entry);
          return null;
        },
      );
      this.pending.add(entry);
      this.list.append(entry.chip);
    }
    this.list.hidden = this.pending.size === 0;
  }

  /** Removes a chip; its upload is cancelled, or the uploaded file deleted. */
  remove(entry) {
    entry.removed = true;
    entry.controller.abort();
    void entry.upload.then((file) => file && deleteFile(this.apiBase, file.id));
    this.drop(entry);
  }

  /** Waits for the uploads and hands over the files that made it; the list is empty afterwards. */
  async take() {
    const entries = [...this.pending];
    const files = await Promise.all(entries.map((e) => e.upload));
    for (const entry of entries) this.drop(entry);
    return files.filter((f) => f !== null);
  }

  drop(entry) {
    this.pending.delete(entry);
    entry.chip.remove();
    this.list.hidden = this.pending.size === 0;
  }
}
