"""Search over the development corpus: MRR@10 and recall@10 of each ranking against a bm25s reference, index build
speed and query latency (``python -m bench.search_eval``; ``docs/search.md`` "Measured")."""
