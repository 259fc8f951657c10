/**
 * @module The text a document embedder embeds for a document, as Haystack's document embedders
 * build it: `prefix + separator.join([str(meta[f]) for the set meta_fields_to_embed] + [content or
 * ""]) + suffix`, with Python's `str()` of each meta value.
 */
import * as v from "valibot";
import type { Document } from "../dataclasses/document.js";
import { pythonRepr } from "../jinja.js";

/** Init parameters every document embedder shares (Haystack's names and defaults). */
export const documentTextEntries = {
  prefix: v.optional(v.string(), ""),
  suffix: v.optional(v.string(), ""),
  meta_fields_to_embed: v.nullish(v.array(v.string())),
  embedding_separator: v.optional(v.string(), "\n"),
};

export interface DocumentTextOptions {
  prefix: string;
  suffix: string;
  meta_fields_to_embed?: readonly string[] | null;
  embedding_separator: string;
}

export function textToEmbed(doc: Document, o: DocumentTextOptions): string {
  const metaValues = (o.meta_fields_to_embed ?? []).filter((key) => doc.meta[key] !== undefined && doc.meta[key] !== null).map((key) => pyStr(doc.meta[key]));
  return o.prefix + [...metaValues, doc.content ?? ""].join(o.embedding_separator) + o.suffix;
}

function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pythonRepr(value);
}

/** A copy of the document with its embedding; the id stays (Haystack's `dataclasses.replace`). */
export function withEmbedding(doc: Document, embedding: number[] | null): Document {
  return new (doc.constructor as typeof Document)({ ...doc, embedding });
}
