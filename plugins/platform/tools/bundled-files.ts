/**
 * @module Files the platform tools ship beside their code: the skill guides
 * (`plugins/platform/skills/*.md`), the package README and its `docs/` pages, found from the
 * compiled module in `dist/` (the package keeps them next to `dist/`).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The directory of the bundled skill guides, or undefined when the package was shipped without it. */
export function skillsDir(): string | undefined {
  const dir = fileURLToPath(new URL("../../../../plugins/platform/skills/", import.meta.url));
  return existsSync(dir) ? dir : undefined;
}

/** The package README: the default documentation `search_docs` searches. */
export function packageReadme(): string | undefined {
  const file = fileURLToPath(new URL("../../../../README.md", import.meta.url));
  return existsSync(file) ? file : undefined;
}

/** The package's documentation pages (`docs/*.md`), searched with the README. */
export function packageDocsDir(): string | undefined {
  const dir = fileURLToPath(new URL("../../../../docs/", import.meta.url));
  return existsSync(dir) ? dir : undefined;
}
