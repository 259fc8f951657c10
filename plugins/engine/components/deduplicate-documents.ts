/**
 * @module Haystack's _deduplicate_documents (haystack.utils.misc): one document per id, the one
 * with the highest score (no score counts as -inf), in first-seen order of the ids.
 */
import type { Document } from "../dataclasses/document.js";

export function deduplicateDocuments(documents: readonly Document[]): Document[] {
  const best = new Map<string, Document>();
  for (const doc of documents) {
    const current = best.get(doc.id);
    if (!current || (doc.score ?? -Infinity) > (current.score ?? -Infinity)) best.set(doc.id, doc);
  }
  return [...best.values()];
}
