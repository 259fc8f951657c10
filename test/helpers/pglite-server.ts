/**
 * @module A PGlite database with pgvector served over the Postgres wire protocol, run as its own
 * process by `pglite.ts` (PGlite is single-threaded WASM: in its own process it neither blocks nor
 * is slowed by the test or the server under test). Prints `listening <port>` once it answers.
 * With a data directory the database outlives the process (a restart keeps the data).
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const port = Number(process.argv[2] ?? 0);
const maxConnections = Number(process.argv[3] ?? 100);
const dataDir = process.argv[4] || undefined;
const db = await PGlite.create({ dataDir, extensions: { vector } });
const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections });
await server.start();
const conn = server.getServerConn();
process.stdout.write(`listening ${conn.slice(conn.lastIndexOf(":") + 1)}\n`);

const stop = async () => {
  await server.stop().catch(() => undefined);
  await db.close().catch(() => undefined);
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
// The parent's end of stdin closes when it dies: never outlive it.
process.stdin.on("end", () => void stop());
process.stdin.resume();
