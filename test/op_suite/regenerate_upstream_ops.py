#!/usr/bin/env python3
"""Writes upstream_portable_ops.txt from upstream's portable functions.yaml.

Usage:
  python test/op_suite/regenerate_upstream_ops.py [FUNCTIONS_YAML]

FUNCTIONS_YAML defaults to the one the installed executorch package ships
(executorch/kernels/portable/functions.yaml; pip install executorch==1.5.1).
Every entry counts: '- op: <name>.<overload>' (an ATen operator, named
aten::<name>.<overload>) and '- func: <schema>' (the name before '(';
aten:: unless the schema names its namespace, as et_copy:: and
dim_order_ops:: do). The " | <reason>" notes of the current list are kept
for the operators that remain. Reads the YAML as text, so it needs no YAML
package.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "upstream_portable_ops.txt")

HEADER = """\
# The operators of upstream ExecuTorch's portable kernel library: every
# entry of kernels/portable/functions.yaml in executorch 1.5.1 ('- op:' and
# '- func:' alike), as the operator table of an exported program names it.
# Written by regenerate_upstream_ops.py (beside this file); to follow a newer
# upstream, run it on that release's functions.yaml. upstream_coverage_test
# fails when an op-suite program uses none of them.
#
# A line "<operator> | <reason>" marks an operator that upstream's 1.5.1
# exporter cannot write into a program (the reason says why); the test
# then requires only that Ember registers it, and the operator coverage
# test that a C++ kernel test calls it. The script keeps these notes.
"""


def default_yaml():
    import importlib.util

    # executorch is a namespace package: no __file__, one search location.
    location = importlib.util.find_spec("executorch").submodule_search_locations[0]
    return os.path.join(location, "kernels", "portable", "functions.yaml")


def operators(yaml_path):
    names = []
    for line in open(yaml_path):
        m = re.match(r"^- (op|func):\s*([^\s(]+)", line)
        if m:
            name = m.group(2)
            names.append(name if "::" in name else f"aten::{name}")
    return names


def main():
    yaml_path = sys.argv[1] if len(sys.argv) > 1 else default_yaml()
    notes = {}
    if os.path.exists(LIST):
        for line in open(LIST):
            if line.strip() and not line.startswith("#") and " | " in line:
                name, reason = line.rstrip("\n").split(" | ", 1)
                notes[name] = reason
    names = operators(yaml_path)
    if len(set(names)) != len(names):
        sys.exit(f"{yaml_path}: an operator is listed twice")
    with open(LIST, "w") as f:
        f.write(HEADER)
        for name in sorted(names):
            f.write(f"{name} | {notes[name]}\n" if name in notes else f"{name}\n")
    print(f"{LIST}: {len(names)} operators from {yaml_path}")


if __name__ == "__main__":
    main()
