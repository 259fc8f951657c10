# Generates bm25-haystack-cases.ts: run from a directory holding Haystack's in_memory/document_store.py and
# utils/filters.py under haystack/ (with minimal stand-ins for its imports) and test_in_memory.py as t.py:
#   python3 bm25-haystack-cases.py > cases.json
import ast, json
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.dataclasses import Document
src = ast.parse(open("t.py").read())
contents = {}
for node in ast.walk(src):
    if isinstance(node, ast.FunctionDef) and node.name.startswith("test_bm25"):
        cs = []
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Document":
                for kw in n.keywords:
                    if kw.arg == "content" and isinstance(kw.value, ast.Constant):
                        cs.append(kw.value.value)
        contents[node.name] = cs

def run(name, corpus, algorithm, steps):
    """steps: ('q', query, top_k, scale) | ('del', [indexes]) | ('add', [texts])"""
    store = InMemoryDocumentStore(bm25_algorithm=algorithm, shared=False)
    docs = [Document(id=f"d{i}", content=c) for i, c in enumerate(corpus)]
    store.write_documents(docs)
    out = []
    n = len(docs)
    for s in steps:
        if s[0] == "q":
            res = store.bm25_retrieval(query=s[1], top_k=s[2], scale_score=s[3])
            out.append({"op": "query", "query": s[1], "top_k": s[2], "scale_score": s[3], "results": [[d.id, d.score] for d in res]})
        elif s[0] == "del":
            store.delete_documents([f"d{i}" for i in s[1]])
            out.append({"op": "delete", "ids": [f"d{i}" for i in s[1]]})
        elif s[0] == "add":
            new = []
            for t in s[1]:
                new.append(Document(id=f"d{n}", content=t)); n += 1
            store.write_documents(new)
            out.append({"op": "add", "docs": [{"id": d.id, "content": d.content} for d in new]})
    return {"name": name, "algorithm": algorithm, "docs": [{"id": d.id, "content": d.content} for d in docs], "steps": out}

cases = []
ALGS = ["BM25L", "BM25Okapi", "BM25Plus"]
c = contents
for a in ALGS:
    cases.append(run("test_bm25_retrieval", c["test_bm25_retrieval"], a, [("q", "What languages?", 10, False), ("q", "What languages?", 1, True)]))
    cases.append(run("test_bm25_retrieval_with_different_top_k", c["test_bm25_retrieval_with_different_top_k"], a, [("q", "language", 2, False), ("q", "languages", 3, False), ("q", "a popular language", 10, False)]))
    cases.append(run("test_bm25_retrieval_with_two_queries", c["test_bm25_retrieval_with_two_queries"], a, [("q", "Java", 5, False), ("q", "Python", 5, False), ("q", "a popular programming language", 5, False), ("del", [1]), ("q", "Java", 5, False), ("q", "popular Python", 5, False), ("del", [0, 4]), ("q", "is a language", 5, False), ("add", ["Java is a language, Java is an island"]), ("q", "Java", 5, False)]))
    cases.append(run("test_bm25_retrieval_with_non_scaled_BM25Okapi", c["test_bm25_retrieval_with_non_scaled_BM25Okapi"], a, [("q", "Haystack installation", 10, False), ("q", "Haystack installation", 10, True), ("q", "pip install haystack-ai", 10, False), ("del", [0]), ("q", "pip install haystack-ai", 10, False)]))
    cases.append(run("test_bm25_retrieval_with_single_char_query", c["test_bm25_retrieval_with_single_char_query"], a, [("q", "C", 3, False), ("q", "C programming", 3, False)]))
    cases.append(run("test_bm25_retrieval_single_char_content_token", c["test_bm25_retrieval_single_char_content_token"], a, [("q", "R programming", 2, False), ("q", "I", 2, False)]))
    cases.append(run("test_bm25_retrieval_with_scale_score", c["test_bm25_retrieval_with_scale_score"], a, [("q", "Python", 2, True), ("q", "Python", 2, False)]))
    cases.append(run("test_bm25_okapi_scores_do_not_depend_on_deleted_documents", ["one two three four five six seven eight nine ten", "common alpha", "common beta", "common gamma"], a, [("del", [0]), ("q", "common", 3, False), ("q", "alpha common", 3, False)]))
    cases.append(run("test_concurrent_operations_with_large_dataset", [f"Document {i} content" for i in range(100)], a, [("q", "Document 10", 3, False), ("q", "Document 90 content", 3, False), ("del", list(range(0, 100, 2))), ("q", "Document 11", 3, False)]))
print(json.dumps(cases, indent=None))
