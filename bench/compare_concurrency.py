#!/usr/bin/env python3
"""Concurrent executions: N application threads x pool sizes, on real models.

For every model (and, with --mix, all the models together, stream s
running model s % n: a camera model beside an audio model), every stream
count N (--streams) and pool size P (--threads), this runs
build/examples/throughput in a fresh process:

  throughput --model_path=... --streams=N --threads=P --seconds=S --json

--rounds R times, alternating the pool sizes, and keeps the median of the
R throughputs (executions per second, all streams together) and of the R
median latencies. The table gives, per model and N, the throughput at each
pool size, its ratio to pool size 1 (the issue's goal: >= 1.0 with 2
streams on 2 cores), and the one-stream latency at each pool size.

Inputs: <model>.input.npy beside <model>.<dtype>.pte when it exists
(bench_models.py writes it: random data), else ones.

Usage:
  python bench/compare_concurrency.py --models /path/a.fp32.pte,/path/b.fp32.pte
      [--streams 1,2,4] [--threads 1,2] [--seconds 3] [--rounds 3] [--mix]
      [--runner build/examples/throughput] [--json out.json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

from machine import cpu_description


def input_for(pte):
    stem = os.path.basename(pte).split(".")[0]
    npy = os.path.join(os.path.dirname(pte), stem + ".input.npy")
    return npy if os.path.exists(npy) else ""


def run_once(runner, models, streams, threads, seconds):
    inputs = [input_for(m) for m in models]
    cmd = [runner, "--model_path=" + ",".join(models), f"--streams={streams}",
           f"--threads={threads}", f"--seconds={seconds}", "--json"]
    if all(inputs):
        cmd.append("--inputs=" + "|".join(inputs))
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", required=True, help="comma-separated .pte paths")
    ap.add_argument("--streams", default="1,2,4")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mix", action="store_true", help="also run all models together")
    ap.add_argument("--runner", default="build/examples/throughput")
    ap.add_argument("--json", default="")
    a = ap.parse_args()

    models = [m for m in a.models.split(",") if m]
    streams = [int(x) for x in a.streams.split(",")]
    pools = [int(x) for x in a.threads.split(",")]
    sets = [[m] for m in models] + ([models] if a.mix and len(models) > 1 else [])
    print(f"CPU: {cpu_description()}", flush=True)

    rows = []
    for group in sets:
        label = "+".join(os.path.basename(m).split(".")[0] for m in group)
        for n in streams:
            results = {p: [] for p in pools}
            for _ in range(a.rounds):
                for p in pools:
                    results[p].append(run_once(a.runner, group, n, p, a.seconds))
            row = {"models": label, "streams": n, "pools": {}}
            for p in pools:
                row["pools"][p] = {
                    "executions_per_s": statistics.median(r["executions_per_s"] for r in results[p]),
                    "latency_ms_median": statistics.median(r["latency_ms"]["median"] for r in results[p]),
                    "rounds": results[p],
                }
            rows.append(row)
            base = row["pools"][pools[0]]["executions_per_s"]
            cells = "  ".join(
                f"P={p}: {row['pools'][p]['executions_per_s']:8.2f}/s ({row['pools'][p]['executions_per_s'] / base:4.2f}x, "
                f"{row['pools'][p]['latency_ms_median']:7.2f} ms)" for p in pools)
            print(f"{label:32s} N={n:<2d} {cells}", flush=True)

    if a.json:
        with open(a.json, "w") as f:
            json.dump({"cpu": cpu_description(), "seconds": a.seconds, "rounds": a.rounds, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
