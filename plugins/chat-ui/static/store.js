// The conversation lives in sessionStorage: it survives a reload of the tab and ends with it.
// Storage may be disabled or full; the chat then works without it.

export class ConversationStore {
  constructor(key) {
    this.key = key;
  }

  /** @returns {{model: string, messages: object[]}} */
  load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.key) ?? "null");
      if (saved && Array.isArray(saved.messages)) return { model: String(saved.model ?? ""), messages: saved.messages };
    } catch {
      // unreadable: start afresh
    }
    return { model: "", messages: [] };
  }

  save(state) {
    try {
      sessionStorage.setItem(this.key, JSON.stringify(state));
    } catch {
      // storage unavailable
    }
  }
}
