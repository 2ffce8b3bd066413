"""Benchmarks for vaultmem: a synthetic vault generator and the index/search benchmark.

Run from the repository root after ``pip install -e .``::

    python -m benchmarks index --notes 10000
    python -m benchmarks generate /tmp/vault --notes 10000 --seed 42

See benchmarks/README.md.
"""
