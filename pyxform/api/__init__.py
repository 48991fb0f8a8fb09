"""Layer 4, the API: pipelines and conversions over the stages; the public names are re-exported by ``pyxform``.

    pipeline    Pipeline, PipelineResult, CONVERSION (clean -> normalize -> headers -> map -> merge)
    convert     convert(page), convert_grid(grid) -> Conversion (XML, pairs, JSON, CSV tables, XHTML, XSD)
    dataframes  to_dataframe(page), to_dataframes(page): tables as pandas DataFrames
"""
