"""The engine's thread and the reader's thread: the one place that calls the service layer, with tickets,
stale-result dropping and failures sent back as signals.

Imports nothing of the window above it.
"""
