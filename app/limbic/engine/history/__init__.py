"""The graph as it was: the recorded history (store/recorded.py) read back as of any moment, and between two."""
