/**
 * @module SerperDevWebSearch (haystack-core-integrations' serperdev websearch): web search through
 * Serper's API. Documents are the answer box, the organic results (the snippet as content, the
 * rest as meta) and "people also ask", in that order; links are the organic results' links; both
 * cut at `top_k`. `allowed_domains` restricts the query (`site:` terms) and the results
 * (subdomains too unless `exclude_subdomains`). `SERPERDEV_BASE_URL` (svc) points it at another
 * endpoint than https://google.serper.dev/search.
 */
import * as v from "valibot";
import { traceHeaders } from "svc/plugin";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { Secret, secretParameter } from "../dataclasses/secret.js";

export class SerperDevError extends Error {
  override name = "SerperDevError";
}

const DEFAULT_URL = "https://google.serper.dev/search";
const TIMEOUT_MS = 30_000;

const Init = v.object({
  api_key: secretParameter("SERPERDEV_API_KEY"),
  top_k: v.optional(v.nullable(v.pipe(v.number(), v.integer())), 10),
  allowed_domains: v.optional(v.nullable(v.array(v.string())), null),
  search_params: v.optional(v.nullable(v.record(v.string(), v.unknown())), null),
  exclude_subdomains: v.optional(v.boolean(), false),
});

type Result = Record<string, any>;

export class SerperDevWebSearch extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack_integrations.components.websearch.serperdev.websearch.SerperDevWebSearch";
  static override readonly aliases = ["haystack_integrations.components.websearch.serperdev.SerperDevWebSearch", "haystack.components.websearch.serper_dev.SerperDevWebSearch", "SerperDevWebSearch"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { query: socket(v.string()) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))), links: output(v.array(v.string())) };
  }

  private get apiKey(): Secret {
    return this.initParameters.api_key ?? Secret.fromEnvVar("SERPERDEV_API_KEY");
  }

  /** Haystack's _is_domain_allowed. */
  isDomainAllowed(url: string): boolean {
    const allowed = this.initParameters.allowed_domains;
    if (!allowed?.length) return true;
    let host: string;
    try {
      host = new URL(url).host.toLowerCase();
    } catch {
      host = ""; // Python's urlparse gives an empty netloc for what is not a URL
    }
    return allowed.some((d) => {
      const domain = d.toLowerCase();
      return host === domain || (!this.initParameters.exclude_subdomains && host.endsWith(`.${domain}`));
    });
  }

  async run(inputs: { query: string }, ctx?: ComponentContext): Promise<{ documents: Document[]; links: string[] }> {
    const { allowed_domains, search_params, top_k } = this.initParameters;
    const prefix = allowed_domains?.length ? allowed_domains.map((d) => `site:${d} `).join("OR ") : "";
    const payload = { q: prefix + inputs.query, gl: "us", hl: "en", autocorrect: true, ...search_params };
    const key = this.apiKey.resolveValue();
    if (!key) throw new Error("API key cannot be `None`.");
    const url = process.env.SERPERDEV_BASE_URL || DEFAULT_URL;
    const timer = AbortSignal.timeout(TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(url, { method: "POST", headers: { ...traceHeaders(ctx?.span), "X-API-KEY": key, "content-type": "application/json" }, body: JSON.stringify(payload), signal: ctx ? AbortSignal.any([ctx.signal, timer]) : timer });
    } catch (error) {
      if (ctx?.signal.aborted) throw ctx.signal.reason ?? error;
      if (timer.aborted) throw new Error("Request to SerperDevWebSearch timed out.", { cause: error });
      throw new SerperDevError(`An error occurred while querying SerperDevWebSearch. Error: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    if (!response.ok) throw new SerperDevError(`An error occurred while querying SerperDevWebSearch. Error: HTTP ${response.status} from ${url}, Response: ${text}`);
    let json: Result;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SerperDevError(`An error occurred while querying SerperDevWebSearch. Error: the answer is not JSON: ${text.slice(0, 200)}`, { cause: error });
    }
    const [documents, links] = this.parse(json);
    const cut = <T>(list: T[]) => (top_k === null ? list : list.slice(0, top_k < 0 ? Math.max(0, list.length + top_k) : top_k));
    return { documents: cut(documents), links: cut(links) };
  }

  /** Haystack's _parse_response. */
  parse(json: Result): [Document[], string[]] {
    const organicResults: Result[] = Array.isArray(json.organic) ? json.organic : [];
    const allowed = (r: Result) => this.isDomainAllowed(r.link ?? "");
    const organic = organicResults.filter(allowed).map((r) => new Document({ content: r.snippet ?? null, meta: Object.fromEntries(Object.entries(r).filter(([k]) => k !== "snippet")) }));
    const answerBox: Document[] = [];
    const box = json.answerBox as Result | undefined;
    if (box) {
      const highlighted = box.snippetHighlighted;
      let content: unknown = Array.isArray(highlighted) && highlighted.length ? highlighted[0] : typeof highlighted === "string" ? highlighted : null;
      if (!content) for (const key of ["snippet", "answer", "title"]) if (key in box) {
        content = box[key];
        break;
      }
      if (content && this.isDomainAllowed(box.link ?? "")) answerBox.push(new Document({ content: String(content), meta: { title: box.title ?? "", link: box.link ?? "" } }));
    }
    const peopleAlsoAsk = (Array.isArray(json.peopleAlsoAsk) ? (json.peopleAlsoAsk as Result[]) : [])
      .filter(allowed)
      .map((r) => new Document({ content: r.snippet ? r.snippet : (r.title ?? ""), meta: { title: r.title ?? "", link: r.link ?? null } }));
    return [[...answerBox, ...organic, ...peopleAlsoAsk], organicResults.filter(allowed).map((r) => r.link)];
  }
}
