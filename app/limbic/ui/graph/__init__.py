"""The graph view: the open entity's neighbourhood and the whole graph (see panel.py)."""
