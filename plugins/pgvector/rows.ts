/**
 * @module Documents ↔ rows of Haystack's pgvector table (id, embedding, content, blob_data,
 * blob_meta, blob_mime_type, meta), a port of converters.py: a table written by Haystack reads
 * back here and the reverse. Rows travel column-wise (one array per column) so a batch of any
 * size is one INSERT … SELECT FROM unnest(…) — one round trip.
 */
import pgvector from "pgvector";
import { ByteStream, Document } from "svc/engine";

/** The columns of a read, with the embedding as pgvector's text form (no per-connection type setup). */
export const SELECT_COLUMNS = "id, embedding::text AS embedding, content, blob_data, blob_meta, blob_mime_type, meta";

export interface DocumentRow {
  id: string;
  embedding: string | null;
  content: string | null;
  blob_data: Buffer | null;
  blob_meta: Record<string, unknown> | null;
  blob_mime_type: string | null;
  meta: Record<string, unknown> | null;
  score?: number | string | null;
}

/** One array per column, in INSERT order. */
export type Columns = [string[], (string | null)[], (string | null)[], (Buffer | null)[], (string | null)[], (string | null)[], string[]];

export function toColumns(documents: readonly Document[]): Columns {
  const columns: Columns = [[], [], [], [], [], [], []];
  for (const doc of documents) {
    const blob = doc.blob;
    columns[0].push(doc.id);
    columns[1].push(doc.embedding ? pgvector.toSql(doc.embedding) : null);
    // PostgreSQL text cannot hold NUL bytes (Haystack removes them too).
    columns[2].push(doc.content != null ? doc.content.replace(/\0/g, "") : null);
    columns[3].push(blob ? blob.data : null);
    columns[4].push(blob && Object.keys(blob.meta).length > 0 ? JSON.stringify(blob.meta) : null);
    columns[5].push(blob?.mimeType || null);
    columns[6].push(JSON.stringify(doc.meta ?? {}));
  }
  return columns;
}

export function fromRow(row: DocumentRow, withEmbedding = true): Document {
  const blob = row.blob_data ? new ByteStream(row.blob_data, row.blob_meta ?? {}, row.blob_mime_type ?? null) : null;
  const embedding = withEmbedding && row.embedding != null ? (pgvector.fromSql(row.embedding) as number[]) : null;
  const score = row.score == null ? null : Number(row.score);
  return new Document({ id: row.id, content: row.content, blob, meta: row.meta ?? {}, embedding, score });
}
