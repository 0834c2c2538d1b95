"""The knowledge graph and its search: storage, indexes, models, ranking. Never imports Qt."""
