"""Limbic: a personal knowledge graph with local hybrid search."""

import os

__version__ = "0.1.0"

# numpy's OpenBLAS keeps its threads spinning for a while after each call; on a two-core machine
# they take the core that search's text branch runs on beside the vector scan (engine/search/search.py).
# Limbic's own numpy work is single-threaded by design; set before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
