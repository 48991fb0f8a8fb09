"""Package data: pyxform's XSLT 3.0 stylesheets, one driver per stage (normalize, headers, map, merge, pairs, schema,
tabular, json, xhtml; docs/stylesheets.md), and the modules they include.

This folder holds no Python code; it is a package only so that the stylesheets install with pyxform and load with
:func:`importlib.resources.files`.
"""
