"""The wings: programs built on the jobs layer and the public API (crawl; search and batch come beside it)."""
