"""The hybrid search: reading the query, the text branch (FTS5 with stems), the meaning branch (KNN),
Reciprocal Rank Fusion, limbic re-ranking and highlighting.

May import every room below it (``store``, ``text``, ``vectors``, ``graph``); never ``formats``.
"""
