"""Package data: pyxform's XSLT 3.0 stylesheets, one per pipeline stage (normalize, headers, map, merge, schema).

This folder holds no Python code; it is a package only so that the stylesheets install with pyxform and load with
:func:`importlib.resources.files`.
"""
