#!/usr/bin/env python3
"""Runs the same .pte files in Ember (executor_runner) and in upstream's
runtime (the executorch Python package), at 1 and 2 threads, and prints
latency and load-time ratios (Ember / upstream; below 1 is faster).
--kind portable (default) takes the non-delegated twins (the portable
kernels), --kind xnnpack the XNNPACK-lowered files; the XNNPACK comparison
on real architectures, with ONNX Runtime, is bench/compare_upstream.py.

Usage:
  python examples/export/export_xnnpack.py --models      # writes .bench/models
  python bench/compare_portable.py [--kind portable|xnnpack] \\
      [--runner build/examples/executor_runner] [--models .bench/models]
      [--iters 20] [--threads 1,2]

Both sides: a fresh process per model and thread count (Ember: the
runner; upstream: this script re-run as a child, its imports done before
any timer starts), inputs all ones, a warm-up execution first, then the
median of --iters timed executions of forward() alone. Load time: the
first program plus method load in that process, so both sides load
cold, as an application starting up does (Ember: the runner's own
timers; upstream: _load_program then load_method), the file read once
beforehand so that neither side waits on the disk. Thread count: Ember's
--threads, upstream's _unsafe_reset_threadpool.
"""

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def ember(runner, pte, threads, iters):
    out = subprocess.run([runner, f"--model_path={pte}", f"--num_executions={iters + 1}",
                          f"--threads={threads}"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    text = out.stdout + out.stderr
    load = re.search(r"Program loaded in ([0-9.]+) ms; method '\w+' in ([0-9.]+) ms", text)
    median = re.search(r"median ([0-9.]+) ms", text)
    return float(median.group(1)), float(load.group(1)) + float(load.group(2))


def upstream(pte, threads, iters):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", pte,
                          str(threads), str(iters)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    result = json.loads([l for l in out.stdout.splitlines() if l.startswith("{")][-1])
    return result["median_ms"], result["load_ms"]


def upstream_in_this_process(pte, threads, iters):
    import torch
    from executorch.extension.pybindings import portable_lib as et

    et._unsafe_reset_threadpool(threads)
    # _load_for_executorch loads the method lazily; time program + method.
    t0 = time.perf_counter()
    program = et._load_program(pte)
    program.load_method("forward")
    load_ms = (time.perf_counter() - t0) * 1e3
    del program
    m = et._load_for_executorch(pte)
    meta = m.method_meta("forward")
    inputs = tuple(torch.ones(list(meta.input_tensor_meta(i).sizes()))
                   for i in range(meta.num_inputs()))
    m.forward(inputs)  # warm-up
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        m.forward(inputs)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), load_ms


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        median_ms, load_ms = upstream_in_this_process(sys.argv[2], int(sys.argv[3]),
                                                      int(sys.argv[4]))
        print(json.dumps({"median_ms": median_ms, "load_ms": load_ms}))
        return
    p = argparse.ArgumentParser()
    p.add_argument("--runner", default=os.path.join(ROOT, "build", "examples", "executor_runner"))
    p.add_argument("--models", default=os.path.join(ROOT, ".bench", "models"))
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--only", default="*")
    p.add_argument("--kind", default="portable", choices=["xnnpack", "portable"],
                   help="xnnpack: the XNNPACK-lowered files; portable: their "
                        "non-delegated twins (portable kernels on both sides)")
    args = p.parse_args()
    suffix = f".{args.kind}.pte"
    files = sorted(glob.glob(os.path.join(args.models, f"{args.only}{suffix}")))
    if not files:
        raise SystemExit(f"no *{suffix} in {args.models}; run export_xnnpack.py --models")
    print(f"{'model':22} {'thr':>3} {'ember ms':>9} {'upstr ms':>9} {'ratio':>6} "
          f"{'ember load':>10} {'upstr load':>10} {'ratio':>6}")
    for pte in files:
        name = os.path.basename(pte)[: -len(suffix)]
        with open(pte, "rb") as f:  # into the page cache: neither side reads the disk
            f.read()
        for t in [int(x) for x in args.threads.split(",")]:
            e_ms, e_load = ember(args.runner, pte, t, args.iters)
            u_ms, u_load = upstream(pte, t, args.iters)
            print(f"{name:22} {t:>3} {e_ms:>9.3f} {u_ms:>9.3f} {e_ms / u_ms:>6.2f} "
                  f"{e_load:>10.2f} {u_load:>10.2f} {e_load / u_load:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
