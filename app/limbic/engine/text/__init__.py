"""The languages of the graph's text: stop words and Snowball stems for English and Spanish.

Pure functions over strings; imports nothing of the engine but its root modules.
"""
