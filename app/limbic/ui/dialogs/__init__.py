"""Dialogs the window opens: settings, shortcuts, unexpected errors, backups, import reports, and dropping a
file to import it.

May import ``common`` and ``workers``; never another feature room or ``shell``.
"""
