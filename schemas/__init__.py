"""Package data: XSDs of pyxform's own XML formats (annotated XHTML, grid); see ``docs/formats.md``.

This folder holds no Python code; it is a package only so that the schemas install with pyxform and load with
:func:`importlib.resources.files`.
"""
