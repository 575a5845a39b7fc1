#!/usr/bin/env python3
"""The portable path against the delegate and against upstream, in one run:
for each model and thread count, the median latency of

  ember portable   <name>.portable.pte (no delegate: Ember's portable
                   operators on kernels/math) in Ember's executor_runner
  ember xnnpack    <name>.fp32.pte (the XNNPACK-lowered twin) in the same runner
  upstream portable  <name>.portable.pte in upstream's runtime (the executorch
                   Python package, portable kernels)

and the ratios portable / xnnpack (the issue's target: <= 1.5) and
portable / upstream portable. Inputs are the model's <name>.input.npy
(random normal; BatchNorm statistics calibrated at export), on both sides.

Usage:
  python bench/bench_models.py --only resnet18,mobilenet_v2,vit_small,transformer_encoder \\
      --dtypes fp32,portable --no-onnx
  python bench/compare_optimized.py [--models .bench/models] [--threads 1,2]
      [--iters 20] [--upstream-iters 3] [--repeats 1] [--only resnet18,...]

Each measurement is a fresh process (the runner; upstream: this script
re-run as a child) with one warm-up execution first. Medians of separate
processes differ by several percent on a shared machine: --repeats N runs
each Ember measurement N times, portable and XNNPACK alternating, and
reports the median of the N medians.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MODELS = ["resnet18", "mobilenet_v2", "vit_small", "transformer_encoder"]


def ember(runner, pte, npy, threads, iters):
    out = subprocess.run([runner, f"--model_path={pte}", f"--inputs={npy}",
                          f"--num_executions={iters + 1}", f"--threads={threads}"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    return float(re.search(r"median ([0-9.]+) ms", out.stdout + out.stderr).group(1))


def upstream(pte, npy, threads, iters):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", pte, npy,
                          str(threads), str(iters)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    return json.loads([l for l in out.stdout.splitlines() if l.startswith("{")][-1])["median_ms"]


def upstream_child(pte, npy, threads, iters):
    import numpy as np
    import torch
    from executorch.extension.pybindings import portable_lib as et

    et._unsafe_reset_threadpool(threads)
    m = et._load_for_executorch(pte)
    x = (torch.from_numpy(np.load(npy)),)
    m.forward(x)  # warm-up
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        m.forward(x)
        times.append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({"median_ms": statistics.median(times)}))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        upstream_child(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runner", default=os.path.join(ROOT, "build", "examples", "executor_runner"))
    p.add_argument("--models", default=os.path.join(ROOT, ".bench", "models"))
    p.add_argument("--threads", default="1,2")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--upstream-iters", type=int, default=3)
    p.add_argument("--repeats", type=int, default=1,
                   help="fresh processes per Ember measurement, portable and XNNPACK "
                        "alternating; the median of their medians is reported")
    p.add_argument("--only", default=",".join(MODELS))
    args = p.parse_args()
    print("| model | threads | Ember portable ms | Ember XNNPACK ms | portable / XNNPACK "
          "| upstream portable ms | Ember / upstream portable |")
    print("|---|---|---|---|---|---|---|")
    for name in args.only.split(","):
        base = os.path.join(args.models, name)
        npy = base + ".input.npy"
        for t in [int(x) for x in args.threads.split(",")]:
            ports, xnns = [], []
            for _ in range(args.repeats):
                ports.append(ember(args.runner, base + ".portable.pte", npy, t, args.iters))
                xnns.append(ember(args.runner, base + ".fp32.pte", npy, t, args.iters))
            port, xnn = statistics.median(ports), statistics.median(xnns)
            up = upstream(base + ".portable.pte", npy, t, args.upstream_iters)
            print(f"| {name} | {t} | {port:.2f} | {xnn:.2f} | {port / xnn:.2f} | {up:.1f} "
                  f"| {port / up:.3f} |", flush=True)


if __name__ == "__main__":
    main()
