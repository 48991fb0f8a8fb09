"""Layer 3, stages: one module (or package) per stage of the pipeline; imports ``pyxform.base`` and
``pyxform.runtime``.

    clean      stage 1: HTML page -> annotated XHTML (Python: parsing, charsets, the CSS cascade)
    normalize  stage 2: annotated XHTML -> grid (WHATWG table model, stylesheets/normalize.xsl), the grid model
    headers    stage 3: grid -> grid with header annotations (stylesheets/headers.xsl)
    tabular    header-annotated grid -> columns and records (stylesheets/tabular.xsl): CSV and DataFrames
    schema     an XSD for an output (stylesheets/schema.xsl); validation
    query      XPath 3.1 / XQuery 3.1 over output files
"""
