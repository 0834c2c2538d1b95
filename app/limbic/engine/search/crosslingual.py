"""Short queries in another language than the notes: what the query says, without which language it says it in.

The default model's vector of a query of one to three words is dominated by the language it is
written in: "copia de seguridad" lands on the notes written in Spanish or with Spanish names (a
recipe, a doctor, a novel) before the English ones about backups. The vector of that language's
common words alone (its stop-word list: all language, no subject) points the same way, so it is
taken off the query's. Only for such queries: on whole sentences, and on any query sharing a word
with the notes, the subject outweighs the language, and taking it off costs (0.03 to 0.09 nDCG@10
of the meaning branch on every evaluation collection, docs/search.md).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

from typing import TYPE_CHECKING

from limbic.engine.text.stopwords import BY_LANGUAGE

if TYPE_CHECKING:
    import numpy as np

    from limbic.engine.vectors.embeddings import Embedder

# Queries of at most this many words that carry meaning are "short".
SHORT_QUERY_TERMS = 3
_probes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _probe(embedder: Embedder, lang: str) -> np.ndarray:
    cached = _probes.setdefault(embedder, {})
    if lang not in cached:
        cached[lang] = embedder.encode_query(" ".join(sorted(BY_LANGUAGE[lang])))
    return cached[lang]


def applies(terms: Sequence[str], text_hits: bool) -> bool:
    """True for a short query that shares no word with the graph."""
    return not text_hits and 0 < len(terms) <= SHORT_QUERY_TERMS


def language_free(embedder: Embedder, lang: str, vector: np.ndarray) -> np.ndarray:
    """The query's vector less that of its language's common words (``lang``: the query's, ``Query.language``)."""
    import numpy as np  # numpy loads with the first search, not at start-up

    q = np.asarray(vector, dtype=np.float32)
    return (q / max(float(np.linalg.norm(q)), 1e-12) - _probe(embedder, lang)).astype(np.float32)
