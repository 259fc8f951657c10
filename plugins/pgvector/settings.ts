/**
 * @module The settings svc:pgvector declares: the size of each store's connection pool and how
 * long a query waits for a connection before the run answers 503.
 */
import { setting, settingTypes } from "svc/plugin";

const { decimal, integer } = settingTypes;

export const pgvectorSettings = {
  pgvectorPoolSize: setting(integer(1, 1000), {
    env: "SERVICE_PGVECTOR_POOL_SIZE",
    default: 10,
    help: "Connections each PgvectorDocumentStore may open to its database (one pool per store, opened on first use).",
  }),
  pgvectorConnectTimeoutSeconds: setting(decimal(0.1, 600), {
    env: "SERVICE_PGVECTOR_CONNECT_TIMEOUT_SECONDS",
    default: 10,
    help: "How long a query waits for a database connection (a new one, or a free one when the pool is busy) before the run answers 503.",
  }),
};
