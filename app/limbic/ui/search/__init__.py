"""Search and its results: the search bar, the query's flow to the reader and back, the result list with
its score breakdown, the filters, the empty-query lists and the entity browser.

May import ``common`` and ``workers``; never another feature room or ``shell``.
"""
