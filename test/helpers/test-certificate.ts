/**
 * @module Test helper: a throw-away self-signed certificate for 127.0.0.1 and localhost, made by the
 * `openssl` command line, serving as its own CA. Tests that need one skip with `certificateSkipReason()`
 * when openssl is missing.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { binaryPath } from "./redis.js";

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** The certificate's PEM text (the CA a client trusts). */
  certPem: string;
  /** Removes the files. */
  remove(): Promise<void>;
}

export function certificateSkipReason(): string | null {
  return binaryPath("openssl") ? null : "openssl is not installed; TLS tests skipped";
}

export async function createTestCertificate(): Promise<TestCertificate> {
  const dir = await mkdtemp(join(tmpdir(), "svc-cert-"));
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  await promisify(execFile)(binaryPath("openssl") ?? "openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
    ...["-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=localhost"],
    ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
  ]);
  return { certFile, keyFile, certPem: await readFile(certFile, "utf8"), remove: () => rm(dir, { recursive: true, force: true }) };
}
