"""Limbic: a personal knowledge graph with local hybrid search."""

__version__ = "0.1.0"
