"""Benchmark and evaluation scripts (not tests): run them as ``python -m bench.NAME`` from the repository root."""
