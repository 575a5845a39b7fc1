"""Ember's generated operator suite.

Each module in this package (elementwise.py, reductions.py, shape.py, ...)
declares cases with `op_case(...)`. `export_op_suite.py` exports every case
with the real upstream exporter into one small `.bpte` per case, whose test
cases carry PyTorch's eager outputs. The C++ test (test/op_suite) runs every
file through the bundled verifier with per-dtype tolerances.
"""
