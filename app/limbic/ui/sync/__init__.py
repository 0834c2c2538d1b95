"""Sync in the window: File → Sync…, the background exchange with the folder, its status and the Conflicts view."""
