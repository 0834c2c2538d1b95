"""The entity editor: name, type, observations and relations as one draft, its history panel, and the flow
that opens, saves (with conflicts), deletes and navigates entities.

May import ``common`` and ``workers``; never another feature room or ``shell``.
"""
