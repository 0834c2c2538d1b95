"""File formats: the reference memory server's JSONL and Limbic's richer records, read and written.

May import every room below it; nothing imports it but the engine's root modules and the service layer.
"""
