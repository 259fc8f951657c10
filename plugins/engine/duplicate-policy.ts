/**
 * @module Haystack's DuplicatePolicy and the document-store errors (haystack/document_stores/types/policy.py
 * and errors.py), shared by every store and the DocumentWriter.
 */

export const DuplicatePolicy = { NONE: "none", SKIP: "skip", OVERWRITE: "overwrite", FAIL: "fail" } as const;
export type DuplicatePolicy = (typeof DuplicatePolicy)[keyof typeof DuplicatePolicy];

/** Accepts a policy's name ("SKIP", as Haystack serializes it) or value ("skip"). */
export function parseDuplicatePolicy(value: unknown): DuplicatePolicy {
  const policy = String(value ?? "none").toLowerCase();
  if (!Object.values(DuplicatePolicy).includes(policy as DuplicatePolicy)) throw new Error(`Unknown DuplicatePolicy '${String(value)}'. Use one of NONE, SKIP, OVERWRITE, FAIL.`);
  return policy as DuplicatePolicy;
}

export class DocumentStoreError extends Error {
  override name = "DocumentStoreError";
}
export class DuplicateDocumentError extends DocumentStoreError {
  override name = "DuplicateDocumentError";
}
