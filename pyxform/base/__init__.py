"""Layer 1, base: what every other layer stands on, with no Saxon and no stage in it.

    errors        the exception tree (code, location, exit status)
    memory        freed memory given back to the operating system between stages (large pages)
    limits        resource limits (Limits, DEFAULT_LIMITS) and the error of a limit that was hit
    files         atomic writes, outputs that are written in place (devices, pipes)
    safexml       the one way XML from outside is parsed (no DTD, no entity, no network)
    source        a page's bytes and where they come from (Source, read_source)
    fetch         the safe http(s) fetch (size and time caps, private addresses refused)
    warc          the HTML pages of a WARC file: each record told, broken ones reported, a page read at its offset
    warc_readers  warcio's record iterator and body readers, made strict (for warc)
"""
