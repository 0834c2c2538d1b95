"""The languages of the graph's text: stop words, Snowball stems and the time expressions of a query.

English and Spanish. Pure functions over strings; imports nothing of the engine but its root modules.
"""
