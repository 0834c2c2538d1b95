"""Memory health: what the health checks found, reviewed one finding at a time.

May import ``common`` and ``workers``; never another feature room or ``shell``.
"""
