#!/usr/bin/env python3
"""Per-operator overhead: what one kernel call costs beyond its arithmetic,
with and without kernel prepare (docs/custom_kernels.md), against upstream's
portable runtime on the same file.

Models (portable kernels, no delegate), written to --out (default
.bench/overhead) on first use:
  chain1000.pte  1000 times x = sigmoid(x * w + b) on a [1, 4] tensor: 3000
                 kernel calls on four elements each, so the time per call
                 is the overhead
  and, when present, bench/bench_models.py's lstm_tagger.portable.pte and
  small_transformer.portable.pte from --models (real small models, where
  the arithmetic also counts).

For each model and thread count, rounds alternate Ember without prepare
(--kernel_prepare=false), Ember with it, an optional older runner
(--base_runner, say a build of the commit before), and upstream; each
side's figure is the median of --iters executions in a fresh process, and
the table gives the lowest over the rounds. ns/call = ms / kernel calls
(from the runner's --profile counts).

Usage:
  python bench/kernel_overhead.py [--runner build/examples/executor_runner]
      [--base_runner OLD/executor_runner] [--threads 1,2] [--rounds 3]
      [--iters 2000] [--no-upstream]
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


def export_chain(path, n):
    import torch
    from executorch.exir import to_edge

    class Chain(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("w", torch.full((1, 4), 1.0001))
            self.register_buffer("b", torch.full((1, 4), 0.5))

        def forward(self, x):
            for _ in range(n):
                x = torch.sigmoid(x * self.w + self.b)
            return x

    ep = torch.export.export(Chain().eval(), (torch.randn(1, 4),))
    with open(path, "wb") as f:
        f.write(to_edge(ep).to_executorch().buffer)


def kernel_calls(runner, pte):
    out = subprocess.run([runner, f"--model_path={pte}", "--profile", "--threads=1"],
                         capture_output=True, text=True, check=True)
    # Profile rows: "  <name>  <count>  <total ms> ..."; kernel rows only.
    calls = 0
    for line in (out.stdout + out.stderr).splitlines():
        m = re.match(r"\s+native_call_\S+\s+([0-9.]+)\s", line)
        if m:
            calls += int(float(m.group(1)))
    return calls


def ember(runner, pte, threads, iters, extra):
    out = subprocess.run([runner, f"--model_path={pte}", f"--num_executions={iters}",
                          f"--threads={threads}"] + extra, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    return float(re.search(r"median ([0-9.]+) ms", out.stdout + out.stderr).group(1))


def upstream(pte, threads, iters):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", pte,
                          str(threads), str(iters)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stdout + out.stderr)
    return json.loads([l for l in out.stdout.splitlines() if l.startswith("{")][-1])["ms"]


def child(pte, threads, iters):
    import torch
    from executorch.extension.pybindings import portable_lib as et

    et._unsafe_reset_threadpool(threads)
    m = et._load_for_executorch(pte)
    meta = m.method_meta("forward")
    inputs = tuple(torch.ones(list(meta.input_tensor_meta(i).sizes()))
                   for i in range(meta.num_inputs()))
    for _ in range(20):
        m.forward(inputs)
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        m.forward(inputs)
        times.append((time.perf_counter() - t0) * 1e3)
    # Upstream's figure includes the Python call (pybind11, the input
    # tuple): a few microseconds per execution, under 2% of chain1000's.
    print(json.dumps({"ms": statistics.median(times)}))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runner", default=os.path.join(ROOT, "build", "examples", "executor_runner"))
    p.add_argument("--base_runner", default="")
    p.add_argument("--out", default=os.path.join(ROOT, ".bench", "overhead"))
    p.add_argument("--models", default=os.path.join(ROOT, ".bench", "models"))
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=2000)
    p.add_argument("--no-upstream", action="store_true")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    models = []
    for n in (1000,):
        path = os.path.join(args.out, f"chain{n}.pte")
        if not os.path.exists(path):
            export_chain(path, n)
        models.append((f"chain{n}", path))
    for name in ("lstm_tagger", "small_transformer"):
        path = os.path.join(args.models, f"{name}.portable.pte")
        if os.path.exists(path):
            models.append((name, path))
    import platform
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    print(f"CPU: {cpu} ({os.cpu_count()} logical CPUs); {args.rounds} rounds, "
          f"median of {args.iters} executions per process, lowest over rounds\n")
    sides = [("no prepare", lambda pte, t: ember(args.runner, pte, t, args.iters,
                                                  ["--kernel_prepare=false"])),
             ("prepare", lambda pte, t: ember(args.runner, pte, t, args.iters, []))]
    if args.base_runner:
        sides.insert(0, ("base", lambda pte, t: ember(args.base_runner, pte, t, args.iters, [])))
    if not args.no_upstream:
        sides.append(("upstream", lambda pte, t: upstream(pte, t, args.iters)))
    head = " | ".join(f"{s} ms" for s, _ in sides)
    print(f"| model | calls | threads | {head} | prepare/no prepare | "
          f"ns/call no prepare | ns/call prepare |")
    print("|---|---:|---:|" + "---:|" * (len(sides) + 3))
    for name, pte in models:
        calls = kernel_calls(args.runner, pte)
        for t in [int(x) for x in args.threads.split(",")]:
            best = {s: float("inf") for s, _ in sides}
            for _ in range(args.rounds):
                for s, fn in sides:
                    best[s] = min(best[s], fn(pte, t))
            cells = " | ".join(f"{best[s]:.4f}" for s, _ in sides)
            per = lambda ms: f"{ms * 1e6 / calls:.0f}" if calls else "-"
            print(f"| {name} | {calls} | {t} | {cells} | "
                  f"{best['prepare'] / best['no prepare']:.2f} | {per(best['no prepare'])} | "
                  f"{per(best['prepare'])} |", flush=True)


if __name__ == "__main__":
    main()
