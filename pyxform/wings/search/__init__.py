"""Table search: ``pyxform index``, ``pyxform search``, ``pyxform serve`` (``docs/search.md``).

:func:`~pyxform.wings.search.index.build_index` adds pages to an index folder; :class:`~pyxform.wings.search.query.
Searcher` answers queries with the integrative ranking of :mod:`~pyxform.wings.search.rank`; :mod:`.serve` is the
search page. Importing this package imports nothing else (the query path stays fast to start).
"""
