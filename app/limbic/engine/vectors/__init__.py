"""The derived indexes: the embedding model, the text each entity is embedded from and its windows, the
vec0 tables with their exact in-memory mirror, and the upkeep that keeps full-text rows and vectors in step
with the graph inside the writer's transaction.

May import ``store`` and ``text``; nothing of ``graph``, ``search`` or ``formats``.
"""
