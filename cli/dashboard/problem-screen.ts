/**
 * @module The screens shown instead of the list when a poll fails: 401 (no credential), 403 (the
 * wrong one), an unreachable server, a server without the trace API, or an answer that is not a
 * snapshot. Each says what happened and what to do; polling goes on underneath.
 */
import { clean, line, piece, wrap, type Line } from "./styled-line.js";
import type { Problem } from "./view-state.js";

export interface ScreenContext {
  readonly url: string;
  readonly intervalSec: number;
  /** The operator credential file, when the host is one it is read for. */
  readonly credentialFile?: string;
  /** Why the credential file was not used, when it was refused. */
  readonly credentialRefused?: string;
}

const TOKEN_HINT = "Or set SERVICE_DASHBOARD_TOKEN to the server's SERVICE_OPERATOR_TOKEN.";

/** The problem's title and paragraphs; `width` wraps the paragraphs. */
export function problemLines(problem: Problem, ctx: ScreenContext, width: number): Line[] {
  return describeProblem(problem, ctx).flatMap((l) => {
    if (l.pieces.length !== 1 || l.pieces[0]!.style) return [l];
    return wrap(l.pieces[0]!.text, Math.max(10, width - 4)).map((t) => line(`  ${t}`));
  });
}

function describeProblem(problem: Problem, ctx: ScreenContext): Line[] {
  const title = (code: string, text: string) => line(piece(`  ${code}  `, "red"), piece(clean(text), "bold"));
  const text = (t: string) => line(clean(t));
  const detail = problem.detail ? [text(`Server said: ${problem.detail}`)] : [];
  switch (problem.kind) {
    case "unauthorized":
      return [
        title("401", `Not authorized: GET /traces at ${ctx.url} needs an operator credential.`),
        line(),
        ...(problem.credential === "none"
          ? ctx.credentialRefused
            ? [text(`${ctx.credentialRefused}`), text(TOKEN_HINT)]
            : ctx.credentialFile
            ? [
                text(`No credential found in ${ctx.credentialFile}.`),
                text("A server bound to localhost, 127.0.0.1 or ::1 writes it when it starts; run both as the same user with the same XDG_CACHE_HOME."),
                text(TOKEN_HINT),
              ]
            : [
                text("The local credential file is read only for the hosts localhost, 127.0.0.1 and ::1, never sent elsewhere."),
                text(`For ${hostOf(ctx.url)}, set SERVICE_DASHBOARD_TOKEN to the server's SERVICE_OPERATOR_TOKEN.`),
              ]
          : [text("The credential sent was not accepted as one.")]),
        ...detail,
      ];
    case "forbidden":
      return [
        title("403", `Forbidden: ${ctx.url} refused the operator credential.`),
        line(),
        ...(problem.credential === "explicit"
          ? [text("SERVICE_DASHBOARD_TOKEN does not match the server's SERVICE_OPERATOR_TOKEN.")]
          : problem.credential === "credential-file"
            ? [text(`The token in ${ctx.credentialFile ?? "the credential file"} is not this server's (another server, user or cache dir?).`), text(TOKEN_HINT)]
            : [text("A server bound to a non-loopback host refuses traces until it has SERVICE_OPERATOR_TOKEN (see its log).")]),
        ...detail,
      ];
    case "unreachable":
      return [
        title("✘", `Cannot reach svc at ${ctx.url}.`),
        line(),
        text(problem.detail),
        text("Start it with `svc run`, or point the viewer elsewhere with --url (or SERVICE_HOST and SERVICE_PORT)."),
      ];
    case "not-mounted":
      return [
        title("404", `No trace API at ${ctx.url}/traces.`),
        line(),
        text("The server runs without tracing (--without-tracing or SERVICE_TRACING_ENABLED=false)."),
        ...detail,
      ];
    case "failed":
      return [title("✘", `GET /traces at ${ctx.url} failed.`), line(), text(problem.detail)];
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
