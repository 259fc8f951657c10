/**
 * @module The names of Haystack's async store tests (haystack/testing/document_store_async.py): a
 * contract case run through the `*_async` forms is named after its Haystack twin when there is one
 * (`CountDocumentsTest.test_count_empty` → `CountDocumentsAsyncTest.test_count_empty_async`), so
 * a port can be counted case by case; otherwise "<name> (async forms)".
 */

/** Haystack spells the by-filter counters `test_count_…_by_filter_async_<rest>`, the others `test_…_async`. */
function twin(className: string, method: string): string {
  const infix = method.match(/^(test_count_(?:documents|unique_metadata)_by_filter)_(.+)$/);
  const asyncMethod = infix ? `${infix[1]}_async_${infix[2]}` : `${method}_async`;
  return `${className.replace(/Test$/, "AsyncTest")}.${asyncMethod}`;
}

const HAYSTACK_ASYNC_CLASSES = new Set([
  "CountDocumentsTest",
  "WriteDocumentsTest",
  "DeleteDocumentsTest",
  "DeleteAllTest",
  "DeleteByFilterTest",
  "CountDocumentsByFilterTest",
  "CountUniqueMetadataByFilterTest",
  "GetMetadataFieldsInfoTest",
  "GetMetadataFieldMinMaxTest",
  "GetMetadataFieldUniqueValuesTest",
]);
/** UpdateByFilterAsyncTest has one case; FilterDocumentsAsyncTest has its own smoke cases (cases-async.ts). */
const HAYSTACK_ASYNC_SINGLES = new Set(["UpdateByFilterTest.test_update_by_filter"]);

/** The name a case gets when it runs through the `*_async` forms. */
export function asyncCaseName(name: string): string {
  const match = name.match(/^(\w+)\.(test_\w+)(.*)$/);
  if (!match) return `${name} (async forms)`;
  const [, className, method, rest] = match as unknown as [string, string, string, string];
  if (HAYSTACK_ASYNC_CLASSES.has(className!) || HAYSTACK_ASYNC_SINGLES.has(`${className}.${method}`)) return `${twin(className!, method!)}${rest}`;
  return `${name} (async forms)`;
}
