"""The knowledge graph and its search: storage, indexes, models, ranking. Never imports Qt."""

# The change log and backups register with every Database (db.HOOKS): imported here, so that no
# connection opens without them, and db.py knows nothing of either.
from limbic.engine.store import backup, changes  # noqa: F401
