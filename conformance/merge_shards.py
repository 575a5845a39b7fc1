#!/usr/bin/env python3
"""Merges the reports of conformance shard runs into one set of reports.

    conformance/merge_shards.py --out DIR SHARD_DIR [SHARD_DIR ...]
        [--binary build/conformance/ember_conformance]

Each SHARD_DIR is the --out of an `ember_conformance --shard I/N` run. The
merge itself is done by `ember_conformance --merge`, which reads each
report.json and writes report.csv, report.json, junit.xml and summary.md
with the same writers as a whole run (one copy of the report code). The
exit status is the tool's: 0 only when every merged result that is not an
expected failure passed or was skipped. Standard library only.
"""
import argparse
import os
import subprocess
import sys


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    default_binary = os.path.join(here, "..", "build", "conformance", "ember_conformance")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="directory for the merged reports")
    parser.add_argument("--binary", default=default_binary, help="ember_conformance to use")
    parser.add_argument("shards", nargs="+", help="shard output directories")
    args = parser.parse_args()
    for shard in args.shards:
        if "," in shard:
            parser.error(f"shard directory names must not contain ',': {shard!r}")
        if not os.path.isfile(os.path.join(shard, "report.json")):
            parser.error(f"{shard!r} has no report.json")
    if not os.access(args.binary, os.X_OK):
        parser.error(f"{args.binary!r} is not an executable (build the ember_conformance target)")
    command = [args.binary, "--merge=" + ",".join(args.shards), "--out=" + args.out]
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main())
