"""The wings: programs built on the jobs layer and the public API (crawl, index/search, batch)."""
