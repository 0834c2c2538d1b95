"""Benchmarks: scripts that print numbers and write reports (never timed assertions)."""

import os

# As the app does (limbic/__init__.py), before a benchmark imports numpy: BLAS threads spinning
# after a reference computation would take the core the measured search uses.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
