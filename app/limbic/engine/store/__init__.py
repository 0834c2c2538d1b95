"""The storage floor: the graph file's connection, schema and migrations, transactions, the per-row capture
of every commit (the activity recorder and the change log), stored values, derived tables, backups and the
graph's identity.

It knows nothing of the features built on it: it imports only the standard library, apsw, ``limbic.config``,
``limbic.osfiles`` and the engine's root modules (``errors``, ``wording``). Everything above registers with it
(``db.HOOKS``) instead of being imported by it. An import-linter contract keeps it at the bottom.
"""
