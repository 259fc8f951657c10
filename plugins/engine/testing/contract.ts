/**
 * @module The document-store contract suite: Haystack's shared store tests
 * (haystack/testing/document_store.py and document_store_async.py) as cases any test runner can
 * register. `documentStoreContract({ test, store })` adds every case to the runner through `test`
 * (uvu's suite, node:test's `test`, mocha's `it` all fit); each case gets a fresh, empty store
 * from the factory and gives it to `teardown` afterwards. Assertions use node:assert, so the suite
 * needs nothing outside Node.
 */
import assert from "node:assert/strict";
import { assertDocumentsEqual } from "./assertions.js";
import type { Document } from "../dataclasses/document.js";
import type { ExtendedDocumentStore } from "../document-store-protocol.js";
import { basicCases } from "./cases-basic.js";
import { filterCases } from "./cases-filters.js";
import { extendedCases } from "./cases-extended.js";
import { metadataCases } from "./cases-metadata.js";
import { asyncCases } from "./cases-async.js";
import { asyncCaseName } from "./async-names.js";

export type TestFunction = (name: string, fn: () => Promise<void>) => unknown;

/** The store as a case sees it: every method answers a promise (the plain or the `_async` form). */
export type StoreUnderTest = { [K in keyof ExtendedDocumentStore]-?: ExtendedDocumentStore[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

export interface ContractContext {
  store: StoreUnderTest;
  /** Compares documents as the suite's options say (by default: order-insensitive, embeddings to 1e-5). */
  assertDocumentsEqual(received: Document[], expected: Document[]): void;
  embeddingSize: number;
}

export interface ContractCase {
  /** The Haystack test it ports (e.g. "FilterDocumentsTest.test_comparison_in"). */
  name: string;
  /** Which part of the protocol it needs: "base" (the four methods) or "extended". */
  group: "base" | "extended";
  /** Only through the plain methods or only through the `*_async` forms (Haystack's async-only smoke tests). */
  only?: "plain" | "async";
  run(ctx: ContractContext): Promise<void>;
}

export interface DocumentStoreContractOptions<S extends object> {
  /** Registers one test: `suite` for uvu, `test` from node:test, `it` for mocha. */
  test: TestFunction;
  /** A fresh, empty store for each case. */
  store: () => S | Promise<S>;
  /** Cleans up after each case (drop the table, close the pool). */
  teardown?: (store: S) => void | Promise<void>;
  /** Run the extended-method cases (default true: svc's stores have them all). */
  extended?: boolean;
  /** Also run every case through the `*_async` forms (default true). */
  asyncForms?: boolean;
  /** The length of the fixtures' embeddings (default 768, Haystack's). */
  embeddingSize?: number;
  /** Replaces the document comparison (a store that adds scores or rounds embeddings differently). */
  assertDocumentsEqual?: (received: Document[], expected: Document[]) => void;
  /** Cases to leave out: a part of their name → why (for the reader; skipped cases are not registered). */
  skip?: Record<string, string>;
}

/** Every case of the contract, in Haystack's order. */
export const documentStoreContractCases: readonly ContractCase[] = [...basicCases, ...filterCases, ...extendedCases, ...metadataCases, ...asyncCases];

/** Registers the contract's cases with a test runner; answers how many tests it registered. */
export function documentStoreContract<S extends object>(options: DocumentStoreContractOptions<S>): number {
  const modes: Array<"plain" | "async"> = options.asyncForms === false ? ["plain"] : ["plain", "async"];
  const compare = options.assertDocumentsEqual ?? assertDocumentsEqual;
  let registered = 0;
  for (const mode of modes) {
    for (const c of documentStoreContractCases) {
      if (c.group === "extended" && options.extended === false) continue;
      if (c.only && c.only !== mode) continue;
      const name = mode === "async" && !c.only ? asyncCaseName(c.name) : c.name;
      const skipped = Object.entries(options.skip ?? {}).find(([part]) => name.includes(part));
      if (skipped) continue;
      registered++;
      options.test(name, async () => {
        const raw = await options.store();
        try {
          await c.run({ store: view(raw, mode), assertDocumentsEqual: compare, embeddingSize: options.embeddingSize ?? 768 });
        } finally {
          await options.teardown?.(raw);
        }
      });
    }
  }
  return registered;
}

/** The store with promise-answering methods, calling `name` or `name_async`. */
function view(store: object, mode: "plain" | "async"): StoreUnderTest {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (typeof property !== "string") return Reflect.get(target, property, receiver);
      const name = mode === "async" ? `${property}_async` : property;
      const method = Reflect.get(target, name, receiver) as unknown;
      if (typeof method !== "function") throw new assert.AssertionError({ message: `The store has no method ${name}()` });
      return async (...args: unknown[]) => method.apply(target, args);
    },
  }) as StoreUnderTest;
}

