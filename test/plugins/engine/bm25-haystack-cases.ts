/**
 * Expected BM25 scores from Haystack itself: its InMemoryDocumentStore (haystack/document_stores/in_memory/document_store.py at 3.2.0-rc0)
 * run by bm25-haystack-cases.py over the corpora of test/document_stores/test_in_memory.py (each
 * test_bm25_* corpus, for all three algorithms, with extra queries, deletes and writes). Haystack's tests assert only
 * rankings; these are the scores its code computes. Regenerate with the script if Haystack changes.
 */
export interface Bm25Step { op: "query" | "delete" | "add"; query?: string; top_k?: number; scale_score?: boolean; results?: [string, number][]; ids?: string[]; docs?: { id: string; content: string }[] }
export interface Bm25Case { name: string; algorithm: "BM25L" | "BM25Okapi" | "BM25Plus"; docs: { id: string; content: string }[]; steps: Bm25Step[] }
export const HAYSTACK_BM25_CASES: Bm25Case[] = [
 {
  "name": "test_bm25_retrieval",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "Hello world"
   },
   {
    "id": "d1",
    "content": "Haystack supports multiple languages"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "What languages?",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d1",
      0.804545834578508
     ],
     [
      "d0",
      0.4332169878499658
     ]
    ]
   },
   {
    "op": "query",
    "query": "What languages?",
    "top_k": 1,
    "scale_score": true,
    "results": [
     [
      "d1",
      0.5251208882421599
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_different_top_k",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "Hello world"
   },
   {
    "id": "d1",
    "content": "Haystack supports multiple languages"
   },
   {
    "id": "d2",
    "content": "Python is a popular programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "language",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.103432909638192
     ],
     [
      "d0",
      0.6130182831323289
     ]
    ]
   },
   {
    "op": "query",
    "query": "languages",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      1.2260365662646577
     ],
     [
      "d0",
      0.6130182831323289
     ],
     [
      "d2",
      0.6130182831323289
     ]
    ]
   },
   {
    "op": "query",
    "query": "a popular language",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      3.310298728914576
     ],
     [
      "d0",
      1.8390548493969865
     ],
     [
      "d1",
      1.8390548493969865
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_two_queries",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "Javascript is a popular programming language"
   },
   {
    "id": "d1",
    "content": "Java is a popular programming language"
   },
   {
    "id": "d2",
    "content": "Python is a popular programming language"
   },
   {
    "id": "d3",
    "content": "Ruby is a popular programming language"
   },
   {
    "id": "d4",
    "content": "PHP is a popular programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d1",
      1.7328679513998633
     ],
     [
      "d0",
      0.8664339756999316
     ],
     [
      "d2",
      0.8664339756999316
     ],
     [
      "d3",
      0.8664339756999316
     ],
     [
      "d4",
      0.8664339756999316
     ]
    ]
   },
   {
    "op": "query",
    "query": "Python",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.7328679513998633
     ],
     [
      "d0",
      0.8664339756999316
     ],
     [
      "d1",
      0.8664339756999316
     ],
     [
      "d3",
      0.8664339756999316
     ],
     [
      "d4",
      0.8664339756999316
     ]
    ]
   },
   {
    "op": "query",
    "query": "a popular programming language",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.4350568849481485
     ],
     [
      "d1",
      0.4350568849481485
     ],
     [
      "d2",
      0.4350568849481485
     ],
     [
      "d3",
      0.4350568849481485
     ],
     [
      "d4",
      0.4350568849481485
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d1"
    ]
   },
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": []
   },
   {
    "op": "query",
    "query": "popular Python",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.6366666499797031
     ],
     [
      "d0",
      0.884183647275993
     ],
     [
      "d3",
      0.884183647275993
     ],
     [
      "d4",
      0.884183647275993
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0",
     "d4"
    ]
   },
   {
    "op": "query",
    "query": "is a language",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      0.6837058379773298
     ],
     [
      "d3",
      0.6837058379773298
     ]
    ]
   },
   {
    "op": "add",
    "docs": [
     {
      "id": "d5",
      "content": "Java is a language, Java is an island"
     }
    ]
   },
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d5",
      1.468392631689067
     ],
     [
      "d2",
      0.6130182831323289
     ],
     [
      "d3",
      0.6130182831323289
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_non_scaled_BM25Okapi",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "Use pip to install a basic version of Haystack's latest release: pip install\n                farm-haystack. All the core Haystack components live in the haystack repo. But there's also the\n                haystack-extras repo which contains components that are not as widely used, and you need to\n                install them separately."
   },
   {
    "id": "d1",
    "content": "Use pip to install a basic version of Haystack's latest release: pip install\n                farm-haystack[inference]. All the core Haystack components live in the haystack repo. But there's\n                also the haystack-extras repo which contains components that are not as widely used, and you need\n                to install them separately."
   },
   {
    "id": "d2",
    "content": "Use pip to install only the Haystack 2.0 code: pip install haystack-ai. The haystack-ai\n                package is built on the main branch which is an unstable beta version, but it's useful if you want\n                to try the new features as soon as they are merged."
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Haystack installation",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.26203698067982395
     ],
     [
      "d1",
      0.2612709088292017
     ],
     [
      "d2",
      0.23520762675429677
     ]
    ]
   },
   {
    "op": "query",
    "query": "Haystack installation",
    "top_k": 10,
    "scale_score": true,
    "results": [
     [
      "d0",
      0.5081879236144063
     ],
     [
      "d1",
      0.50816399027021
     ],
     [
      "d2",
      0.5073497089098324
     ]
    ]
   },
   {
    "op": "query",
    "query": "pip install haystack-ai",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      2.1999484367814777
     ],
     [
      "d0",
      1.3167618739190305
     ],
     [
      "d1",
      1.3141640499265503
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0"
    ]
   },
   {
    "op": "query",
    "query": "pip install haystack-ai",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.9851404204901644
     ],
     [
      "d1",
      1.3899450394400112
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_single_char_query",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "C programming language"
   },
   {
    "id": "d1",
    "content": "Java programming language"
   },
   {
    "id": "d2",
    "content": "Python programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "C",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d0",
      1.2260365662646577
     ],
     [
      "d1",
      0.6130182831323289
     ],
     [
      "d2",
      0.6130182831323289
     ]
    ]
   },
   {
    "op": "query",
    "query": "C programming",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d0",
      1.392950807045311
     ],
     [
      "d1",
      0.7799325239129821
     ],
     [
      "d2",
      0.7799325239129821
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_single_char_content_token",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "I like R"
   },
   {
    "id": "d1",
    "content": "I like Python"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "R programming",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.8664339756999316
     ],
     [
      "d1",
      0.4332169878499658
     ]
    ]
   },
   {
    "op": "query",
    "query": "I",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.22790194599244323
     ],
     [
      "d1",
      0.22790194599244323
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_scale_score",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "Python programming"
   },
   {
    "id": "d1",
    "content": "Java programming"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Python",
    "top_k": 2,
    "scale_score": true,
    "results": [
     [
      "d0",
      0.5270496263269833
     ],
     [
      "d1",
      0.5135347235374872
     ]
    ]
   },
   {
    "op": "query",
    "query": "Python",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.8664339756999316
     ],
     [
      "d1",
      0.4332169878499658
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_okapi_scores_do_not_depend_on_deleted_documents",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "one two three four five six seven eight nine ten"
   },
   {
    "id": "d1",
    "content": "common alpha"
   },
   {
    "id": "d2",
    "content": "common beta"
   },
   {
    "id": "d3",
    "content": "common gamma"
   }
  ],
  "steps": [
   {
    "op": "delete",
    "ids": [
     "d0"
    ]
   },
   {
    "op": "query",
    "query": "common",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      0.1669142407806532
     ],
     [
      "d2",
      0.1669142407806532
     ],
     [
      "d3",
      0.1669142407806532
     ]
    ]
   },
   {
    "op": "query",
    "query": "alpha common",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      1.392950807045311
     ],
     [
      "d2",
      0.7799325239129821
     ],
     [
      "d3",
      0.7799325239129821
     ]
    ]
   }
  ]
 },
 {
  "name": "test_concurrent_operations_with_large_dataset",
  "algorithm": "BM25L",
  "docs": [
   {
    "id": "d0",
    "content": "Document 0 content"
   },
   {
    "id": "d1",
    "content": "Document 1 content"
   },
   {
    "id": "d2",
    "content": "Document 2 content"
   },
   {
    "id": "d3",
    "content": "Document 3 content"
   },
   {
    "id": "d4",
    "content": "Document 4 content"
   },
   {
    "id": "d5",
    "content": "Document 5 content"
   },
   {
    "id": "d6",
    "content": "Document 6 content"
   },
   {
    "id": "d7",
    "content": "Document 7 content"
   },
   {
    "id": "d8",
    "content": "Document 8 content"
   },
   {
    "id": "d9",
    "content": "Document 9 content"
   },
   {
    "id": "d10",
    "content": "Document 10 content"
   },
   {
    "id": "d11",
    "content": "Document 11 content"
   },
   {
    "id": "d12",
    "content": "Document 12 content"
   },
   {
    "id": "d13",
    "content": "Document 13 content"
   },
   {
    "id": "d14",
    "content": "Document 14 content"
   },
   {
    "id": "d15",
    "content": "Document 15 content"
   },
   {
    "id": "d16",
    "content": "Document 16 content"
   },
   {
    "id": "d17",
    "content": "Document 17 content"
   },
   {
    "id": "d18",
    "content": "Document 18 content"
   },
   {
    "id": "d19",
    "content": "Document 19 content"
   },
   {
    "id": "d20",
    "content": "Document 20 content"
   },
   {
    "id": "d21",
    "content": "Document 21 content"
   },
   {
    "id": "d22",
    "content": "Document 22 content"
   },
   {
    "id": "d23",
    "content": "Document 23 content"
   },
   {
    "id": "d24",
    "content": "Document 24 content"
   },
   {
    "id": "d25",
    "content": "Document 25 content"
   },
   {
    "id": "d26",
    "content": "Document 26 content"
   },
   {
    "id": "d27",
    "content": "Document 27 content"
   },
   {
    "id": "d28",
    "content": "Document 28 content"
   },
   {
    "id": "d29",
    "content": "Document 29 content"
   },
   {
    "id": "d30",
    "content": "Document 30 content"
   },
   {
    "id": "d31",
    "content": "Document 31 content"
   },
   {
    "id": "d32",
    "content": "Document 32 content"
   },
   {
    "id": "d33",
    "content": "Document 33 content"
   },
   {
    "id": "d34",
    "content": "Document 34 content"
   },
   {
    "id": "d35",
    "content": "Document 35 content"
   },
   {
    "id": "d36",
    "content": "Document 36 content"
   },
   {
    "id": "d37",
    "content": "Document 37 content"
   },
   {
    "id": "d38",
    "content": "Document 38 content"
   },
   {
    "id": "d39",
    "content": "Document 39 content"
   },
   {
    "id": "d40",
    "content": "Document 40 content"
   },
   {
    "id": "d41",
    "content": "Document 41 content"
   },
   {
    "id": "d42",
    "content": "Document 42 content"
   },
   {
    "id": "d43",
    "content": "Document 43 content"
   },
   {
    "id": "d44",
    "content": "Document 44 content"
   },
   {
    "id": "d45",
    "content": "Document 45 content"
   },
   {
    "id": "d46",
    "content": "Document 46 content"
   },
   {
    "id": "d47",
    "content": "Document 47 content"
   },
   {
    "id": "d48",
    "content": "Document 48 content"
   },
   {
    "id": "d49",
    "content": "Document 49 content"
   },
   {
    "id": "d50",
    "content": "Document 50 content"
   },
   {
    "id": "d51",
    "content": "Document 51 content"
   },
   {
    "id": "d52",
    "content": "Document 52 content"
   },
   {
    "id": "d53",
    "content": "Document 53 content"
   },
   {
    "id": "d54",
    "content": "Document 54 content"
   },
   {
    "id": "d55",
    "content": "Document 55 content"
   },
   {
    "id": "d56",
    "content": "Document 56 content"
   },
   {
    "id": "d57",
    "content": "Document 57 content"
   },
   {
    "id": "d58",
    "content": "Document 58 content"
   },
   {
    "id": "d59",
    "content": "Document 59 content"
   },
   {
    "id": "d60",
    "content": "Document 60 content"
   },
   {
    "id": "d61",
    "content": "Document 61 content"
   },
   {
    "id": "d62",
    "content": "Document 62 content"
   },
   {
    "id": "d63",
    "content": "Document 63 content"
   },
   {
    "id": "d64",
    "content": "Document 64 content"
   },
   {
    "id": "d65",
    "content": "Document 65 content"
   },
   {
    "id": "d66",
    "content": "Document 66 content"
   },
   {
    "id": "d67",
    "content": "Document 67 content"
   },
   {
    "id": "d68",
    "content": "Document 68 content"
   },
   {
    "id": "d69",
    "content": "Document 69 content"
   },
   {
    "id": "d70",
    "content": "Document 70 content"
   },
   {
    "id": "d71",
    "content": "Document 71 content"
   },
   {
    "id": "d72",
    "content": "Document 72 content"
   },
   {
    "id": "d73",
    "content": "Document 73 content"
   },
   {
    "id": "d74",
    "content": "Document 74 content"
   },
   {
    "id": "d75",
    "content": "Document 75 content"
   },
   {
    "id": "d76",
    "content": "Document 76 content"
   },
   {
    "id": "d77",
    "content": "Document 77 content"
   },
   {
    "id": "d78",
    "content": "Document 78 content"
   },
   {
    "id": "d79",
    "content": "Document 79 content"
   },
   {
    "id": "d80",
    "content": "Document 80 content"
   },
   {
    "id": "d81",
    "content": "Document 81 content"
   },
   {
    "id": "d82",
    "content": "Document 82 content"
   },
   {
    "id": "d83",
    "content": "Document 83 content"
   },
   {
    "id": "d84",
    "content": "Document 84 content"
   },
   {
    "id": "d85",
    "content": "Document 85 content"
   },
   {
    "id": "d86",
    "content": "Document 86 content"
   },
   {
    "id": "d87",
    "content": "Document 87 content"
   },
   {
    "id": "d88",
    "content": "Document 88 content"
   },
   {
    "id": "d89",
    "content": "Document 89 content"
   },
   {
    "id": "d90",
    "content": "Document 90 content"
   },
   {
    "id": "d91",
    "content": "Document 91 content"
   },
   {
    "id": "d92",
    "content": "Document 92 content"
   },
   {
    "id": "d93",
    "content": "Document 93 content"
   },
   {
    "id": "d94",
    "content": "Document 94 content"
   },
   {
    "id": "d95",
    "content": "Document 95 content"
   },
   {
    "id": "d96",
    "content": "Document 96 content"
   },
   {
    "id": "d97",
    "content": "Document 97 content"
   },
   {
    "id": "d98",
    "content": "Document 98 content"
   },
   {
    "id": "d99",
    "content": "Document 99 content"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Document 10",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d10",
      5.26827274759403
     ],
     [
      "d0",
      2.637238117135846
     ],
     [
      "d1",
      2.637238117135846
     ]
    ]
   },
   {
    "op": "query",
    "query": "Document 90 content",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d90",
      5.274476234271691
     ],
     [
      "d0",
      2.6434416038135073
     ],
     [
      "d1",
      2.6434416038135073
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0",
     "d2",
     "d4",
     "d6",
     "d8",
     "d10",
     "d12",
     "d14",
     "d16",
     "d18",
     "d20",
     "d22",
     "d24",
     "d26",
     "d28",
     "d30",
     "d32",
     "d34",
     "d36",
     "d38",
     "d40",
     "d42",
     "d44",
     "d46",
     "d48",
     "d50",
     "d52",
     "d54",
     "d56",
     "d58",
     "d60",
     "d62",
     "d64",
     "d66",
     "d68",
     "d70",
     "d72",
     "d74",
     "d76",
     "d78",
     "d80",
     "d82",
     "d84",
     "d86",
     "d88",
     "d90",
     "d92",
     "d94",
     "d96",
     "d98"
    ]
   },
   {
    "op": "query",
    "query": "Document 11",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d11",
      4.420266026323967
     ],
     [
      "d1",
      2.2162906984388657
     ],
     [
      "d3",
      2.2162906984388657
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "Hello world"
   },
   {
    "id": "d1",
    "content": "Haystack supports multiple languages"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "What languages?",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.0
     ],
     [
      "d1",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "What languages?",
    "top_k": 1,
    "scale_score": true,
    "results": [
     [
      "d0",
      0.5
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_different_top_k",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "Hello world"
   },
   {
    "id": "d1",
    "content": "Haystack supports multiple languages"
   },
   {
    "id": "d2",
    "content": "Python is a popular programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "language",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d2",
      0.41700050919672715
     ],
     [
      "d0",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "languages",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      0.5108256237659907
     ],
     [
      "d0",
      0.0
     ],
     [
      "d2",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "a popular language",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.2510015275901814
     ],
     [
      "d0",
      0.0
     ],
     [
      "d1",
      0.0
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_two_queries",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "Javascript is a popular programming language"
   },
   {
    "id": "d1",
    "content": "Java is a popular programming language"
   },
   {
    "id": "d2",
    "content": "Python is a popular programming language"
   },
   {
    "id": "d3",
    "content": "Ruby is a popular programming language"
   },
   {
    "id": "d4",
    "content": "PHP is a popular programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d1",
      1.0986122886681098
     ],
     [
      "d0",
      0.0
     ],
     [
      "d2",
      0.0
     ],
     [
      "d3",
      0.0
     ],
     [
      "d4",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "Python",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.0986122886681098
     ],
     [
      "d0",
      0.0
     ],
     [
      "d1",
      0.0
     ],
     [
      "d3",
      0.0
     ],
     [
      "d4",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "a popular programming language",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d0",
      -0.6496414920651306
     ],
     [
      "d1",
      -0.6496414920651306
     ],
     [
      "d2",
      -0.6496414920651306
     ],
     [
      "d3",
      -0.6496414920651306
     ],
     [
      "d4",
      -0.6496414920651306
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d1"
    ]
   },
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.0
     ],
     [
      "d2",
      0.0
     ],
     [
      "d3",
      0.0
     ],
     [
      "d4",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "popular Python",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      0.6362719869113069
     ],
     [
      "d0",
      -0.2110258734758967
     ],
     [
      "d3",
      -0.2110258734758967
     ],
     [
      "d4",
      -0.2110258734758967
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0",
     "d4"
    ]
   },
   {
    "op": "query",
    "query": "is a language",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      -0.8621988816611251
     ],
     [
      "d3",
      -0.8621988816611251
     ]
    ]
   },
   {
    "op": "add",
    "docs": [
     {
      "id": "d5",
      "content": "Java is a language, Java is an island"
     }
    ]
   },
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d5",
      0.6856719782093835
     ],
     [
      "d2",
      0.0
     ],
     [
      "d3",
      0.0
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_non_scaled_BM25Okapi",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "Use pip to install a basic version of Haystack's latest release: pip install\n                farm-haystack. All the core Haystack components live in the haystack repo. But there's also the\n                haystack-extras repo which contains components that are not as widely used, and you need to\n                install them separately."
   },
   {
    "id": "d1",
    "content": "Use pip to install a basic version of Haystack's latest release: pip install\n                farm-haystack[inference]. All the core Haystack components live in the haystack repo. But there's\n                also the haystack-extras repo which contains components that are not as widely used, and you need\n                to install them separately."
   },
   {
    "id": "d2",
    "content": "Use pip to install only the Haystack 2.0 code: pip install haystack-ai. The haystack-ai\n                package is built on the main branch which is an unstable beta version, but it's useful if you want\n                to try the new features as soon as they are merged."
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Haystack installation",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      -0.1679818669277064
     ],
     [
      "d1",
      -0.19131028395607877
     ],
     [
      "d0",
      -0.19197618284312457
     ]
    ]
   },
   {
    "op": "query",
    "query": "Haystack installation",
    "top_k": 10,
    "scale_score": true,
    "results": [
     [
      "d2",
      0.4947507595250383
     ],
     [
      "d1",
      0.4940218385174943
     ],
     [
      "d0",
      0.49400103216241087
     ]
    ]
   },
   {
    "op": "query",
    "query": "pip install haystack-ai",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      0.2810594021282691
     ],
     [
      "d1",
      -0.49832748469680077
     ],
     [
      "d0",
      -0.500738983804494
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0"
    ]
   },
   {
    "op": "query",
    "query": "pip install haystack-ai",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      -0.3850986315357302
     ],
     [
      "d1",
      -0.4203073558530829
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_single_char_query",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "C programming language"
   },
   {
    "id": "d1",
    "content": "Java programming language"
   },
   {
    "id": "d2",
    "content": "Python programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "C",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.5108256237659907
     ],
     [
      "d1",
      0.0
     ],
     [
      "d2",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "C programming",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.39285845242535794
     ],
     [
      "d1",
      -0.11796717134063277
     ],
     [
      "d2",
      -0.11796717134063277
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_single_char_content_token",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "I like R"
   },
   {
    "id": "d1",
    "content": "I like Python"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "R programming",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.0
     ],
     [
      "d1",
      0.0
     ]
    ]
   },
   {
    "op": "query",
    "query": "I",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      -0.20117973905426254
     ],
     [
      "d1",
      -0.20117973905426254
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_scale_score",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "Python programming"
   },
   {
    "id": "d1",
    "content": "Java programming"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Python",
    "top_k": 2,
    "scale_score": true,
    "results": [
     [
      "d0",
      0.5
     ],
     [
      "d1",
      0.5
     ]
    ]
   },
   {
    "op": "query",
    "query": "Python",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.0
     ],
     [
      "d1",
      0.0
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_okapi_scores_do_not_depend_on_deleted_documents",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "one two three four five six seven eight nine ten"
   },
   {
    "id": "d1",
    "content": "common alpha"
   },
   {
    "id": "d2",
    "content": "common beta"
   },
   {
    "id": "d3",
    "content": "common gamma"
   }
  ],
  "steps": [
   {
    "op": "delete",
    "ids": [
     "d0"
    ]
   },
   {
    "op": "query",
    "query": "common",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      -0.02583957985983383
     ],
     [
      "d2",
      -0.02583957985983383
     ],
     [
      "d3",
      -0.02583957985983383
     ]
    ]
   },
   {
    "op": "query",
    "query": "alpha common",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      0.4849860439061569
     ],
     [
      "d2",
      -0.02583957985983383
     ],
     [
      "d3",
      -0.02583957985983383
     ]
    ]
   }
  ]
 },
 {
  "name": "test_concurrent_operations_with_large_dataset",
  "algorithm": "BM25Okapi",
  "docs": [
   {
    "id": "d0",
    "content": "Document 0 content"
   },
   {
    "id": "d1",
    "content": "Document 1 content"
   },
   {
    "id": "d2",
    "content": "Document 2 content"
   },
   {
    "id": "d3",
    "content": "Document 3 content"
   },
   {
    "id": "d4",
    "content": "Document 4 content"
   },
   {
    "id": "d5",
    "content": "Document 5 content"
   },
   {
    "id": "d6",
    "content": "Document 6 content"
   },
   {
    "id": "d7",
    "content": "Document 7 content"
   },
   {
    "id": "d8",
    "content": "Document 8 content"
   },
   {
    "id": "d9",
    "content": "Document 9 content"
   },
   {
    "id": "d10",
    "content": "Document 10 content"
   },
   {
    "id": "d11",
    "content": "Document 11 content"
   },
   {
    "id": "d12",
    "content": "Document 12 content"
   },
   {
    "id": "d13",
    "content": "Document 13 content"
   },
   {
    "id": "d14",
    "content": "Document 14 content"
   },
   {
    "id": "d15",
    "content": "Document 15 content"
   },
   {
    "id": "d16",
    "content": "Document 16 content"
   },
   {
    "id": "d17",
    "content": "Document 17 content"
   },
   {
    "id": "d18",
    "content": "Document 18 content"
   },
   {
    "id": "d19",
    "content": "Document 19 content"
   },
   {
    "id": "d20",
    "content": "Document 20 content"
   },
   {
    "id": "d21",
    "content": "Document 21 content"
   },
   {
    "id": "d22",
    "content": "Document 22 content"
   },
   {
    "id": "d23",
    "content": "Document 23 content"
   },
   {
    "id": "d24",
    "content": "Document 24 content"
   },
   {
    "id": "d25",
    "content": "Document 25 content"
   },
   {
    "id": "d26",
    "content": "Document 26 content"
   },
   {
    "id": "d27",
    "content": "Document 27 content"
   },
   {
    "id": "d28",
    "content": "Document 28 content"
   },
   {
    "id": "d29",
    "content": "Document 29 content"
   },
   {
    "id": "d30",
    "content": "Document 30 content"
   },
   {
    "id": "d31",
    "content": "Document 31 content"
   },
   {
    "id": "d32",
    "content": "Document 32 content"
   },
   {
    "id": "d33",
    "content": "Document 33 content"
   },
   {
    "id": "d34",
    "content": "Document 34 content"
   },
   {
    "id": "d35",
    "content": "Document 35 content"
   },
   {
    "id": "d36",
    "content": "Document 36 content"
   },
   {
    "id": "d37",
    "content": "Document 37 content"
   },
   {
    "id": "d38",
    "content": "Document 38 content"
   },
   {
    "id": "d39",
    "content": "Document 39 content"
   },
   {
    "id": "d40",
    "content": "Document 40 content"
   },
   {
    "id": "d41",
    "content": "Document 41 content"
   },
   {
    "id": "d42",
    "content": "Document 42 content"
   },
   {
    "id": "d43",
    "content": "Document 43 content"
   },
   {
    "id": "d44",
    "content": "Document 44 content"
   },
   {
    "id": "d45",
    "content": "Document 45 content"
   },
   {
    "id": "d46",
    "content": "Document 46 content"
   },
   {
    "id": "d47",
    "content": "Document 47 content"
   },
   {
    "id": "d48",
    "content": "Document 48 content"
   },
   {
    "id": "d49",
    "content": "Document 49 content"
   },
   {
    "id": "d50",
    "content": "Document 50 content"
   },
   {
    "id": "d51",
    "content": "Document 51 content"
   },
   {
    "id": "d52",
    "content": "Document 52 content"
   },
   {
    "id": "d53",
    "content": "Document 53 content"
   },
   {
    "id": "d54",
    "content": "Document 54 content"
   },
   {
    "id": "d55",
    "content": "Document 55 content"
   },
   {
    "id": "d56",
    "content": "Document 56 content"
   },
   {
    "id": "d57",
    "content": "Document 57 content"
   },
   {
    "id": "d58",
    "content": "Document 58 content"
   },
   {
    "id": "d59",
    "content": "Document 59 content"
   },
   {
    "id": "d60",
    "content": "Document 60 content"
   },
   {
    "id": "d61",
    "content": "Document 61 content"
   },
   {
    "id": "d62",
    "content": "Document 62 content"
   },
   {
    "id": "d63",
    "content": "Document 63 content"
   },
   {
    "id": "d64",
    "content": "Document 64 content"
   },
   {
    "id": "d65",
    "content": "Document 65 content"
   },
   {
    "id": "d66",
    "content": "Document 66 content"
   },
   {
    "id": "d67",
    "content": "Document 67 content"
   },
   {
    "id": "d68",
    "content": "Document 68 content"
   },
   {
    "id": "d69",
    "content": "Document 69 content"
   },
   {
    "id": "d70",
    "content": "Document 70 content"
   },
   {
    "id": "d71",
    "content": "Document 71 content"
   },
   {
    "id": "d72",
    "content": "Document 72 content"
   },
   {
    "id": "d73",
    "content": "Document 73 content"
   },
   {
    "id": "d74",
    "content": "Document 74 content"
   },
   {
    "id": "d75",
    "content": "Document 75 content"
   },
   {
    "id": "d76",
    "content": "Document 76 content"
   },
   {
    "id": "d77",
    "content": "Document 77 content"
   },
   {
    "id": "d78",
    "content": "Document 78 content"
   },
   {
    "id": "d79",
    "content": "Document 79 content"
   },
   {
    "id": "d80",
    "content": "Document 80 content"
   },
   {
    "id": "d81",
    "content": "Document 81 content"
   },
   {
    "id": "d82",
    "content": "Document 82 content"
   },
   {
    "id": "d83",
    "content": "Document 83 content"
   },
   {
    "id": "d84",
    "content": "Document 84 content"
   },
   {
    "id": "d85",
    "content": "Document 85 content"
   },
   {
    "id": "d86",
    "content": "Document 86 content"
   },
   {
    "id": "d87",
    "content": "Document 87 content"
   },
   {
    "id": "d88",
    "content": "Document 88 content"
   },
   {
    "id": "d89",
    "content": "Document 89 content"
   },
   {
    "id": "d90",
    "content": "Document 90 content"
   },
   {
    "id": "d91",
    "content": "Document 91 content"
   },
   {
    "id": "d92",
    "content": "Document 92 content"
   },
   {
    "id": "d93",
    "content": "Document 93 content"
   },
   {
    "id": "d94",
    "content": "Document 94 content"
   },
   {
    "id": "d95",
    "content": "Document 95 content"
   },
   {
    "id": "d96",
    "content": "Document 96 content"
   },
   {
    "id": "d97",
    "content": "Document 97 content"
   },
   {
    "id": "d98",
    "content": "Document 98 content"
   },
   {
    "id": "d99",
    "content": "Document 99 content"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Document 10",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d10",
      5.196806859069912
     ],
     [
      "d0",
      1.0021143230135292
     ],
     [
      "d1",
      1.0021143230135292
     ]
    ]
   },
   {
    "op": "query",
    "query": "Document 90 content",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d90",
      6.198921182083441
     ],
     [
      "d0",
      2.0042286460270584
     ],
     [
      "d1",
      2.0042286460270584
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0",
     "d2",
     "d4",
     "d6",
     "d8",
     "d10",
     "d12",
     "d14",
     "d16",
     "d18",
     "d20",
     "d22",
     "d24",
     "d26",
     "d28",
     "d30",
     "d32",
     "d34",
     "d36",
     "d38",
     "d40",
     "d42",
     "d44",
     "d46",
     "d48",
     "d50",
     "d52",
     "d54",
     "d56",
     "d58",
     "d60",
     "d62",
     "d64",
     "d66",
     "d68",
     "d70",
     "d72",
     "d74",
     "d76",
     "d78",
     "d80",
     "d82",
     "d84",
     "d86",
     "d88",
     "d90",
     "d92",
     "d94",
     "d96",
     "d98"
    ]
   },
   {
    "op": "query",
    "query": "Document 11",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d11",
      4.292638028003219
     ],
     [
      "d1",
      0.7961304665367381
     ],
     [
      "d3",
      0.7961304665367381
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "Hello world"
   },
   {
    "id": "d1",
    "content": "Haystack supports multiple languages"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "What languages?",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d1",
      1.2958838593077238
     ],
     [
      "d0",
      0.6931471805599453
     ]
    ]
   },
   {
    "op": "query",
    "query": "What languages?",
    "top_k": 1,
    "scale_score": true,
    "results": [
     [
      "d1",
      0.5404080526465725
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_different_top_k",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "Hello world"
   },
   {
    "id": "d1",
    "content": "Haystack supports multiple languages"
   },
   {
    "id": "d2",
    "content": "Python is a popular programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "language",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.7815061942457886
     ],
     [
      "d0",
      0.9808292530117263
     ]
    ]
   },
   {
    "op": "query",
    "query": "languages",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      1.9616585060234526
     ],
     [
      "d0",
      0.9808292530117263
     ],
     [
      "d2",
      0.9808292530117263
     ]
    ]
   },
   {
    "op": "query",
    "query": "a popular language",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      5.344518582737366
     ],
     [
      "d0",
      2.942487759035179
     ],
     [
      "d1",
      2.942487759035179
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_two_queries",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "Javascript is a popular programming language"
   },
   {
    "id": "d1",
    "content": "Java is a popular programming language"
   },
   {
    "id": "d2",
    "content": "Python is a popular programming language"
   },
   {
    "id": "d3",
    "content": "Ruby is a popular programming language"
   },
   {
    "id": "d4",
    "content": "PHP is a popular programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d1",
      2.772588722239781
     ],
     [
      "d0",
      1.3862943611198906
     ],
     [
      "d2",
      1.3862943611198906
     ],
     [
      "d3",
      1.3862943611198906
     ],
     [
      "d4",
      1.3862943611198906
     ]
    ]
   },
   {
    "op": "query",
    "query": "Python",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      2.772588722239781
     ],
     [
      "d0",
      1.3862943611198906
     ],
     [
      "d1",
      1.3862943611198906
     ],
     [
      "d3",
      1.3862943611198906
     ],
     [
      "d4",
      1.3862943611198906
     ]
    ]
   },
   {
    "op": "query",
    "query": "a popular programming language",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.6960910159170376
     ],
     [
      "d1",
      0.6960910159170376
     ],
     [
      "d2",
      0.6960910159170376
     ],
     [
      "d3",
      0.6960910159170376
     ],
     [
      "d4",
      0.6960910159170376
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d1"
    ]
   },
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": []
   },
   {
    "op": "query",
    "query": "popular Python",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      2.618666639967525
     ],
     [
      "d0",
      1.4146938356415888
     ],
     [
      "d3",
      1.4146938356415888
     ],
     [
      "d4",
      1.4146938356415888
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0",
     "d4"
    ]
   },
   {
    "op": "query",
    "query": "is a language",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d2",
      1.0939293407637276
     ],
     [
      "d3",
      1.0939293407637276
     ]
    ]
   },
   {
    "op": "add",
    "docs": [
     {
      "id": "d5",
      "content": "Java is a language, Java is an island"
     }
    ]
   },
   {
    "op": "query",
    "query": "Java",
    "top_k": 5,
    "scale_score": false,
    "results": [
     [
      "d5",
      2.297378585913372
     ],
     [
      "d2",
      0.9808292530117263
     ],
     [
      "d3",
      0.9808292530117263
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_non_scaled_BM25Okapi",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "Use pip to install a basic version of Haystack's latest release: pip install\n                farm-haystack. All the core Haystack components live in the haystack repo. But there's also the\n                haystack-extras repo which contains components that are not as widely used, and you need to\n                install them separately."
   },
   {
    "id": "d1",
    "content": "Use pip to install a basic version of Haystack's latest release: pip install\n                farm-haystack[inference]. All the core Haystack components live in the haystack repo. But there's\n                also the haystack-extras repo which contains components that are not as widely used, and you need\n                to install them separately."
   },
   {
    "id": "d2",
    "content": "Use pip to install only the Haystack 2.0 code: pip install haystack-ai. The haystack-ai\n                package is built on the main branch which is an unstable beta version, but it's useful if you want\n                to try the new features as soon as they are merged."
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Haystack installation",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.3900245923287106
     ],
     [
      "d1",
      0.38913490625573866
     ],
     [
      "d2",
      0.3579665590210692
     ]
    ]
   },
   {
    "op": "query",
    "query": "Haystack installation",
    "top_k": 10,
    "scale_score": true,
    "results": [
     [
      "d0",
      0.5121858549310241
     ],
     [
      "d1",
      0.512158068717865
     ],
     [
      "d2",
      0.5111845888938361
     ]
    ]
   },
   {
    "op": "query",
    "query": "pip install haystack-ai",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      3.40799975260876
     ],
     [
      "d0",
      2.050444672325391
     ],
     [
      "d1",
      2.0472227459746546
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0"
    ]
   },
   {
    "op": "query",
    "query": "pip install haystack-ai",
    "top_k": 10,
    "scale_score": false,
    "results": [
     [
      "d2",
      3.0722932804389105
     ],
     [
      "d1",
      2.1484323432197985
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_single_char_query",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "C programming language"
   },
   {
    "id": "d1",
    "content": "Java programming language"
   },
   {
    "id": "d2",
    "content": "Python programming language"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "C",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d0",
      1.9616585060234526
     ],
     [
      "d1",
      0.9808292530117263
     ],
     [
      "d2",
      0.9808292530117263
     ]
    ]
   },
   {
    "op": "query",
    "query": "C programming",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d0",
      2.228721291272498
     ],
     [
      "d1",
      1.2478920382607714
     ],
     [
      "d2",
      1.2478920382607714
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_single_char_content_token",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "I like R"
   },
   {
    "id": "d1",
    "content": "I like Python"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "R programming",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      1.3862943611198906
     ],
     [
      "d1",
      0.6931471805599453
     ]
    ]
   },
   {
    "op": "query",
    "query": "I",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      0.3646431135879092
     ],
     [
      "d1",
      0.3646431135879092
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_retrieval_with_scale_score",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "Python programming"
   },
   {
    "id": "d1",
    "content": "Java programming"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Python",
    "top_k": 2,
    "scale_score": true,
    "results": [
     [
      "d0",
      0.5432136168629449
     ],
     [
      "d1",
      0.5216473087496946
     ]
    ]
   },
   {
    "op": "query",
    "query": "Python",
    "top_k": 2,
    "scale_score": false,
    "results": [
     [
      "d0",
      1.3862943611198906
     ],
     [
      "d1",
      0.6931471805599453
     ]
    ]
   }
  ]
 },
 {
  "name": "test_bm25_okapi_scores_do_not_depend_on_deleted_documents",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "one two three four five six seven eight nine ten"
   },
   {
    "id": "d1",
    "content": "common alpha"
   },
   {
    "id": "d2",
    "content": "common beta"
   },
   {
    "id": "d3",
    "content": "common gamma"
   }
  ],
  "steps": [
   {
    "op": "delete",
    "ids": [
     "d0"
    ]
   },
   {
    "op": "query",
    "query": "common",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      0.26706278524904514
     ],
     [
      "d2",
      0.26706278524904514
     ],
     [
      "d3",
      0.26706278524904514
     ]
    ]
   },
   {
    "op": "query",
    "query": "alpha common",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d1",
      2.228721291272498
     ],
     [
      "d2",
      1.2478920382607714
     ],
     [
      "d3",
      1.2478920382607714
     ]
    ]
   }
  ]
 },
 {
  "name": "test_concurrent_operations_with_large_dataset",
  "algorithm": "BM25Plus",
  "docs": [
   {
    "id": "d0",
    "content": "Document 0 content"
   },
   {
    "id": "d1",
    "content": "Document 1 content"
   },
   {
    "id": "d2",
    "content": "Document 2 content"
   },
   {
    "id": "d3",
    "content": "Document 3 content"
   },
   {
    "id": "d4",
    "content": "Document 4 content"
   },
   {
    "id": "d5",
    "content": "Document 5 content"
   },
   {
    "id": "d6",
    "content": "Document 6 content"
   },
   {
    "id": "d7",
    "content": "Document 7 content"
   },
   {
    "id": "d8",
    "content": "Document 8 content"
   },
   {
    "id": "d9",
    "content": "Document 9 content"
   },
   {
    "id": "d10",
    "content": "Document 10 content"
   },
   {
    "id": "d11",
    "content": "Document 11 content"
   },
   {
    "id": "d12",
    "content": "Document 12 content"
   },
   {
    "id": "d13",
    "content": "Document 13 content"
   },
   {
    "id": "d14",
    "content": "Document 14 content"
   },
   {
    "id": "d15",
    "content": "Document 15 content"
   },
   {
    "id": "d16",
    "content": "Document 16 content"
   },
   {
    "id": "d17",
    "content": "Document 17 content"
   },
   {
    "id": "d18",
    "content": "Document 18 content"
   },
   {
    "id": "d19",
    "content": "Document 19 content"
   },
   {
    "id": "d20",
    "content": "Document 20 content"
   },
   {
    "id": "d21",
    "content": "Document 21 content"
   },
   {
    "id": "d22",
    "content": "Document 22 content"
   },
   {
    "id": "d23",
    "content": "Document 23 content"
   },
   {
    "id": "d24",
    "content": "Document 24 content"
   },
   {
    "id": "d25",
    "content": "Document 25 content"
   },
   {
    "id": "d26",
    "content": "Document 26 content"
   },
   {
    "id": "d27",
    "content": "Document 27 content"
   },
   {
    "id": "d28",
    "content": "Document 28 content"
   },
   {
    "id": "d29",
    "content": "Document 29 content"
   },
   {
    "id": "d30",
    "content": "Document 30 content"
   },
   {
    "id": "d31",
    "content": "Document 31 content"
   },
   {
    "id": "d32",
    "content": "Document 32 content"
   },
   {
    "id": "d33",
    "content": "Document 33 content"
   },
   {
    "id": "d34",
    "content": "Document 34 content"
   },
   {
    "id": "d35",
    "content": "Document 35 content"
   },
   {
    "id": "d36",
    "content": "Document 36 content"
   },
   {
    "id": "d37",
    "content": "Document 37 content"
   },
   {
    "id": "d38",
    "content": "Document 38 content"
   },
   {
    "id": "d39",
    "content": "Document 39 content"
   },
   {
    "id": "d40",
    "content": "Document 40 content"
   },
   {
    "id": "d41",
    "content": "Document 41 content"
   },
   {
    "id": "d42",
    "content": "Document 42 content"
   },
   {
    "id": "d43",
    "content": "Document 43 content"
   },
   {
    "id": "d44",
    "content": "Document 44 content"
   },
   {
    "id": "d45",
    "content": "Document 45 content"
   },
   {
    "id": "d46",
    "content": "Document 46 content"
   },
   {
    "id": "d47",
    "content": "Document 47 content"
   },
   {
    "id": "d48",
    "content": "Document 48 content"
   },
   {
    "id": "d49",
    "content": "Document 49 content"
   },
   {
    "id": "d50",
    "content": "Document 50 content"
   },
   {
    "id": "d51",
    "content": "Document 51 content"
   },
   {
    "id": "d52",
    "content": "Document 52 content"
   },
   {
    "id": "d53",
    "content": "Document 53 content"
   },
   {
    "id": "d54",
    "content": "Document 54 content"
   },
   {
    "id": "d55",
    "content": "Document 55 content"
   },
   {
    "id": "d56",
    "content": "Document 56 content"
   },
   {
    "id": "d57",
    "content": "Document 57 content"
   },
   {
    "id": "d58",
    "content": "Document 58 content"
   },
   {
    "id": "d59",
    "content": "Document 59 content"
   },
   {
    "id": "d60",
    "content": "Document 60 content"
   },
   {
    "id": "d61",
    "content": "Document 61 content"
   },
   {
    "id": "d62",
    "content": "Document 62 content"
   },
   {
    "id": "d63",
    "content": "Document 63 content"
   },
   {
    "id": "d64",
    "content": "Document 64 content"
   },
   {
    "id": "d65",
    "content": "Document 65 content"
   },
   {
    "id": "d66",
    "content": "Document 66 content"
   },
   {
    "id": "d67",
    "content": "Document 67 content"
   },
   {
    "id": "d68",
    "content": "Document 68 content"
   },
   {
    "id": "d69",
    "content": "Document 69 content"
   },
   {
    "id": "d70",
    "content": "Document 70 content"
   },
   {
    "id": "d71",
    "content": "Document 71 content"
   },
   {
    "id": "d72",
    "content": "Document 72 content"
   },
   {
    "id": "d73",
    "content": "Document 73 content"
   },
   {
    "id": "d74",
    "content": "Document 74 content"
   },
   {
    "id": "d75",
    "content": "Document 75 content"
   },
   {
    "id": "d76",
    "content": "Document 76 content"
   },
   {
    "id": "d77",
    "content": "Document 77 content"
   },
   {
    "id": "d78",
    "content": "Document 78 content"
   },
   {
    "id": "d79",
    "content": "Document 79 content"
   },
   {
    "id": "d80",
    "content": "Document 80 content"
   },
   {
    "id": "d81",
    "content": "Document 81 content"
   },
   {
    "id": "d82",
    "content": "Document 82 content"
   },
   {
    "id": "d83",
    "content": "Document 83 content"
   },
   {
    "id": "d84",
    "content": "Document 84 content"
   },
   {
    "id": "d85",
    "content": "Document 85 content"
   },
   {
    "id": "d86",
    "content": "Document 86 content"
   },
   {
    "id": "d87",
    "content": "Document 87 content"
   },
   {
    "id": "d88",
    "content": "Document 88 content"
   },
   {
    "id": "d89",
    "content": "Document 89 content"
   },
   {
    "id": "d90",
    "content": "Document 90 content"
   },
   {
    "id": "d91",
    "content": "Document 91 content"
   },
   {
    "id": "d92",
    "content": "Document 92 content"
   },
   {
    "id": "d93",
    "content": "Document 93 content"
   },
   {
    "id": "d94",
    "content": "Document 94 content"
   },
   {
    "id": "d95",
    "content": "Document 95 content"
   },
   {
    "id": "d96",
    "content": "Document 96 content"
   },
   {
    "id": "d97",
    "content": "Document 97 content"
   },
   {
    "id": "d98",
    "content": "Document 98 content"
   },
   {
    "id": "d99",
    "content": "Document 99 content"
   }
  ],
  "steps": [
   {
    "op": "query",
    "query": "Document 10",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d10",
      8.429236396150449
     ],
     [
      "d0",
      4.219580987417353
     ],
     [
      "d1",
      4.219580987417353
     ]
    ]
   },
   {
    "op": "query",
    "query": "Document 90 content",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d90",
      8.439161974834708
     ],
     [
      "d0",
      4.229506566101611
     ],
     [
      "d1",
      4.229506566101611
     ]
    ]
   },
   {
    "op": "delete",
    "ids": [
     "d0",
     "d2",
     "d4",
     "d6",
     "d8",
     "d10",
     "d12",
     "d14",
     "d16",
     "d18",
     "d20",
     "d22",
     "d24",
     "d26",
     "d28",
     "d30",
     "d32",
     "d34",
     "d36",
     "d38",
     "d40",
     "d42",
     "d44",
     "d46",
     "d48",
     "d50",
     "d52",
     "d54",
     "d56",
     "d58",
     "d60",
     "d62",
     "d64",
     "d66",
     "d68",
     "d70",
     "d72",
     "d74",
     "d76",
     "d78",
     "d80",
     "d82",
     "d84",
     "d86",
     "d88",
     "d90",
     "d92",
     "d94",
     "d96",
     "d98"
    ]
   },
   {
    "op": "query",
    "query": "Document 11",
    "top_k": 3,
    "scale_score": false,
    "results": [
     [
      "d11",
      7.072425642118346
     ],
     [
      "d1",
      3.546065117502185
     ],
     [
      "d3",
      3.546065117502185
     ]
    ]
   }
  ]
 }
];
