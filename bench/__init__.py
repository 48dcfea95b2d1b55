"""Benchmarks, run as ``python -m bench.<name>``; never imported by the packages."""
