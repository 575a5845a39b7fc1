#!/usr/bin/env python3
"""Ember's XNNPACK delegate against upstream ExecuTorch (its Python
runtime, the executorch package) and ONNX Runtime, in one run, on the
models that bench/bench_models.py exports, with their saved inputs.

For each model, dtype (fp32, int8) and thread count (default 1 and 2):

  Ember     build/examples/executor_runner in a fresh process:
            --model_path=<name>.<dtype>.pte --inputs=<name>.input.npy
            --threads=T --num_executions=iters+1 --output_file=...
  upstream  executorch.extension.pybindings.portable_lib in a fresh child
            process (this script re-run), the same .pte and input,
            threads via _unsafe_reset_threadpool(T)
  ORT       onnxruntime (fp32 only, <name>.fp32.onnx) in a fresh child
            process: intra_op_num_threads=T, inter_op_num_threads=1,
            ORT_ENABLE_ALL graph optimizations, sequential execution

Timing: each side executes once to warm up, then --iters timed
executions of the forward call alone (inputs set before each one,
untimed). The runner reports the median of all its executions, the
warm-up included, so the table's numbers for upstream and ORT are the
same statistic (median of warm-up + iters); the median of the iters alone
is in the JSON too (`median_after_warmup_ms`; for Ember not available
from the runner). Load time (program + method, or ORT session creation)
is in the JSON, not in the table. --rounds R runs each side's process R
times, alternating the sides (A B C A B C ...): the table's ms are the
lowest of each side's R medians, and its ratios the median over rounds
of the ratio within each round, so a slow spell hits both sides of a
ratio alike: steadier on a machine that is not quiet.

Outputs: Ember's output (written by the runner, --output_file) against
upstream's for the same program and input, and (fp32) against ORT's for
the same model and input: max abs differences in the table; the JSON also
has upstream vs ORT and each output's largest magnitude, for scale.

Usage:
  python bench/bench_models.py                          # .bench/models
  python bench/compare_upstream.py [--models .bench/models] [--only resnet18,mobilenet_v2]
      [--dtypes fp32,int8] [--threads 1,2] [--iters 20] [--rounds 1] [--json out.json]
      [--runner build/examples/executor_runner] [--no-ort] [--no-upstream]
      [--input-scale S]

--input-scale multiplies every input by S before any side sees it: with
the uncalibrated *_rawbn models (bench_models.py, SUBNORMAL_MODELS),
whose layers are positively homogeneous, S = 1e-33 pushes the activations
into the subnormal range, to check that no runtime slows down on them.
"""

import argparse
import datetime
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ISA_FLAGS = ["avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile", "amx_int8",
             "amx_bf16"]


# ------------------------------------------------------------ children

def child_upstream(pte, inp, threads, iters, out_npy):
    import numpy as np
    import torch
    from executorch.extension.pybindings import portable_lib as et

    # torch's own (OpenMP) pool would serve the input copy below; its
    # threads spin after each parallel region and would compete with the
    # runtime's pool for the cores. One thread: no pool.
    torch.set_num_threads(1)
    et._unsafe_reset_threadpool(threads)
    x = torch.from_numpy(np.load(inp))
    with open(pte, "rb") as f:  # page cache
        f.read()
    t0 = time.perf_counter()
    program = et._load_program(pte)
    program.load_method("forward")
    load_ms = (time.perf_counter() - t0) * 1e3
    del program
    m = et._load_for_executorch(pte)
    result = {}

    def run():
        args = (x.clone(),)
        t = time.perf_counter()
        out = m.forward(args)
        ms = (time.perf_counter() - t) * 1e3
        result["out"] = out
        return ms

    warm = run()
    times = [run() for _ in range(iters)]
    out = result["out"]
    np.save(out_npy, out[0].detach().numpy() if hasattr(out[0], "detach") else np.asarray(out[0]))
    return {"median_ms": statistics.median([warm] + times),
            "median_after_warmup_ms": statistics.median(times), "min_ms": min(times),
            "warmup_ms": warm, "load_ms": load_ms}


def child_ort(onnx_path, inp, threads, iters, out_npy):
    import numpy as np
    import onnxruntime as ort

    x = np.load(inp)
    with open(onnx_path, "rb") as f:
        f.read()
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    t0 = time.perf_counter()
    sess = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
    load_ms = (time.perf_counter() - t0) * 1e3
    name = sess.get_inputs()[0].name
    result = {}

    def run():
        feed = {name: x.copy()}
        t = time.perf_counter()
        out = sess.run(None, feed)
        ms = (time.perf_counter() - t) * 1e3
        result["out"] = out
        return ms

    warm = run()
    times = [run() for _ in range(iters)]
    np.save(out_npy, result["out"][0])
    return {"median_ms": statistics.median([warm] + times),
            "median_after_warmup_ms": statistics.median(times), "min_ms": min(times),
            "warmup_ms": warm, "load_ms": load_ms, "ort_version": ort.__version__}


# ------------------------------------------------------------- parent

def run_child(kind, path, inp, threads, iters, out_npy, timeout):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", kind, path, inp,
           str(threads), str(iters), out_npy]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{kind}: timed out after {timeout} s")
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if out.returncode != 0 or not lines:
        tail = (out.stdout + out.stderr).strip().splitlines()[-3:]
        raise RuntimeError(f"{kind}: exit {out.returncode}: " + " | ".join(tail))
    return json.loads(lines[-1])


def wait_for_runner(runner, wait_s):
    deadline = time.time() + wait_s
    while not os.access(runner, os.X_OK):
        if time.time() > deadline:
            raise RuntimeError(f"runner {runner} missing")
        time.sleep(5)


def ember(runner, pte, inp, threads, iters, out_prefix, timeout, wait_s):
    cmd = [runner, f"--model_path={pte}", f"--inputs={inp}",
           f"--num_executions={iters + 1}", f"--threads={threads}",
           f"--output_file={out_prefix}"]
    last = ""
    for attempt in range(2):  # the runner may be mid-rebuild: wait, retry once
        wait_for_runner(runner, wait_s)
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"ember: timed out after {timeout} s")
        except OSError as e:  # e.g. "Text file busy" while the linker writes it
            last = str(e)
            time.sleep(10)
            continue
        text = out.stdout + out.stderr
        load = re.search(r"Program loaded in ([0-9.]+) ms; method '\w+' in ([0-9.]+) ms", text)
        median = re.search(r"median ([0-9.]+) ms", text)
        mn = re.search(r"min ([0-9.]+) ms", text)
        if out.returncode == 0 and load and median:
            return {"median_ms": float(median.group(1)),
                    "min_ms": float(mn.group(1)) if mn else None,
                    "load_ms": float(load.group(1)) + float(load.group(2))}
        last = f"exit {out.returncode}: " + " | ".join(text.strip().splitlines()[-3:])
        if attempt == 0:
            time.sleep(10)
    raise RuntimeError("ember: " + last)


def cpu_info():
    name, flags = None, set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                k = k.strip()
                if k == "model name" and name is None:
                    name = v.strip()
                elif k == "flags" and not flags:
                    flags = set(v.split())
    except OSError:
        pass
    return {"model_name": name or platform.processor() or "unknown", "logical_cpus": os.cpu_count(),
            "isa": {f: f in flags for f in ISA_FLAGS}}


def versions():
    v = {"python": platform.python_version()}
    for mod in ("torch", "executorch", "onnxruntime", "numpy"):
        try:
            from importlib.metadata import version
            v[mod] = version(mod)
        except Exception:  # noqa: BLE001
            v[mod] = None
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        v["ember_git"] = rev + ("+dirty" if dirty else "")
    except OSError:
        v["ember_git"] = None
    return v


def max_abs_diff(a_path, b_path):
    import numpy as np
    if not (os.path.exists(a_path) and os.path.exists(b_path)):
        return None
    a, b = np.load(a_path), np.load(b_path)
    if a.shape != b.shape:
        if a.size == b.size:
            a = a.reshape(b.shape)
        else:
            return float("nan")
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


def max_abs(path):
    import numpy as np
    return float(np.max(np.abs(np.load(path)))) if os.path.exists(path) else None


def fmt(v, spec=".2f"):
    return "—" if v is None else format(v, spec)


def fmt_diff(v):
    if v is None:
        return "—"
    return "nan" if v != v else f"{v:.2g}"


def discover(models_dir, only, dtypes):
    if only:
        names = only
    else:
        names = sorted(os.path.basename(p)[: -len(".input.npy")]
                       for p in glob.glob(os.path.join(models_dir, "*.input.npy")))
    jobs = []
    for name in names:
        inp = os.path.join(models_dir, f"{name}.input.npy")
        for dtype in dtypes:
            pte = os.path.join(models_dir, f"{name}.{dtype}.pte")
            if not os.path.exists(inp) or not os.path.exists(pte):
                print(f"<!-- {name} {dtype}: no {os.path.basename(pte)} or input in "
                      f"{models_dir}; skipped (bench/bench_models.py exports it) -->",
                      flush=True)
                continue
            info_path = os.path.join(models_dir, f"{name}.{dtype}.info.json")
            info = None
            if os.path.exists(info_path):
                with open(info_path) as f:
                    info = json.load(f)
            jobs.append((name, dtype, pte, inp, info))
    return jobs


def round_ratio(runs, a, b):
    """Median over rounds of a's time over b's in the same round: a slow
    spell of the machine hits both sides of a round alike, so it cancels
    in the ratio (the lowest median of each side, the table's ms, can come
    from different rounds)."""
    pairs = list(zip(runs.get(a, []), runs.get(b, [])))
    ratios = [x["median_ms"] / y["median_ms"] for x, y in pairs
              if x.get("median_ms") and y.get("median_ms")]
    return statistics.median(ratios) if ratios else None


def main():
    if len(sys.argv) == 8 and sys.argv[1] == "--child":
        kind, path, inp, threads, iters, out_npy = sys.argv[2:]
        fn = child_upstream if kind == "upstream" else child_ort
        print(json.dumps(fn(path, inp, int(threads), int(iters), out_npy)))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runner", default=os.path.join(ROOT, "build", "examples", "executor_runner"))
    p.add_argument("--models", default=os.path.join(ROOT, ".bench", "models"))
    p.add_argument("--only", default="", help="comma-separated model names (default: all "
                   "with a <name>.input.npy in --models)")
    p.add_argument("--dtypes", default="fp32,int8")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--rounds", type=int, default=1,
                   help="processes per side, alternating; ms = the lowest of their "
                        "medians (use 3 on a machine that is not quiet)")
    p.add_argument("--json", default="", help="write the raw numbers here")
    p.add_argument("--no-ort", action="store_true")
    p.add_argument("--no-upstream", action="store_true")
    p.add_argument("--timeout", type=int, default=1200, help="seconds per process")
    p.add_argument("--input-scale", type=float, default=1.0,
                   help="multiply every input by this (the subnormal check)")
    p.add_argument("--wait-runner", type=int, default=600,
                   help="seconds to wait for a missing runner (it may be rebuilding)")
    args = p.parse_args()
    if args.iters < 1 or args.rounds < 1:
        raise SystemExit("--iters and --rounds must be at least 1")
    runner = os.path.abspath(args.runner)
    dtypes = [d for d in args.dtypes.split(",") if d]
    threads = [int(t) for t in args.threads.split(",") if t]
    only = [n for n in args.only.split(",") if n]

    cpu, ver = cpu_info(), versions()
    started = datetime.datetime.now().isoformat(timespec="seconds")
    print(f"CPU: {cpu['model_name']} ({cpu['logical_cpus']} logical CPUs); ISA: " +
          ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in cpu["isa"].items()))
    print(f"Versions: " + ", ".join(f"{k} {v}" for k, v in ver.items()))
    rounds = (f"; {args.rounds} processes per side, alternating, the lowest median kept; ratios: median of the per-round ratios"
              if args.rounds > 1 else "")
    print(f"Started {started}; runner {os.path.relpath(runner, ROOT)}; iters {args.iters} "
          f"(+1 warm-up; ms = median of all {args.iters + 1} executions, every side{rounds})\n",
          flush=True)

    jobs = discover(args.models, only, dtypes)
    if not jobs:
        raise SystemExit(f"nothing to run in {args.models}; run bench/bench_models.py first")
    for name, dtype, _, _, info in jobs:
        outside = {k: v for k, v in ((info or {}).get("undelegated_ops") or {}).items()
                   if not k.endswith("(constant)")}
        if outside:
            ops = ", ".join(f"{k} x{v}" for k, v in sorted(outside.items()))
            print(f"Note: {name} {dtype} is not fully delegated to XNNPACK "
                  f"({info.get('delegates')} delegates; outside: {ops})")
    print()
    print("| model | dtype | threads | Ember ms | upstream ms | ORT ms | Ember/upstream "
          "| Ember/ORT | max\\|Δ\\| vs upstream | max\\|Δ\\| vs ORT |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|", flush=True)

    rows = []
    tmp = tempfile.mkdtemp(prefix="ember-bench-")
    if args.input_scale != 1.0:
        import numpy as np
        scaled = []
        for name, dtype, pte, inp, info in jobs:
            path = os.path.join(tmp, f"{name}.scaled.input.npy")
            x = np.load(inp).astype(np.float64) * args.input_scale
            np.save(path, x.astype(np.float32))
            scaled.append((name, dtype, pte, path, info))
        jobs = scaled
        print(f"Inputs scaled by {args.input_scale:g}\n", flush=True)
    t_start = time.time()
    try:
        for name, dtype, pte, inp, info in jobs:
            onnx_path = os.path.join(args.models, f"{name}.fp32.onnx")
            with open(pte, "rb") as f:  # into the page cache for both sides
                f.read()
            for t in threads:
                row = {"model": name, "dtype": dtype, "threads": t, "errors": []}
                if info:
                    row["delegates"] = info.get("delegates")
                    row["undelegated_ops"] = info.get("undelegated_ops")
                tag = f"{name}.{dtype}.t{t}"
                e_out = os.path.join(tmp, f"{tag}.ember")
                u_out = os.path.join(tmp, f"{tag}.upstream.npy")
                o_out = os.path.join(tmp, f"{tag}.ort.npy")
                sides = [("ember", lambda: ember(runner, pte, inp, t, args.iters, e_out,
                                                 args.timeout, args.wait_runner))]
                if not args.no_upstream:
                    sides.append(("upstream", lambda: run_child(
                        "upstream", pte, inp, t, args.iters, u_out, args.timeout)))
                if not args.no_ort and dtype == "fp32":
                    if os.path.exists(onnx_path):
                        sides.append(("ort", lambda: run_child(
                            "ort", onnx_path, inp, t, args.iters, o_out, args.timeout)))
                    else:
                        row["errors"].append(f"ort: no {os.path.basename(onnx_path)}")
                # Rounds alternate the sides, so that a disturbance (another
                # process, a frequency change) hits all of them alike.
                runs = {side: [] for side, _ in sides}
                failed = set()
                for _ in range(args.rounds):
                    for side, fn in sides:
                        if side in failed:
                            continue
                        try:
                            runs[side].append(fn())
                        except Exception as e:  # noqa: BLE001
                            row["errors"].append(str(e))
                            failed.add(side)
                for side, got in runs.items():
                    if got:
                        best = dict(min(got, key=lambda r: r["median_ms"]))
                        if len(got) > 1:
                            best["round_medians_ms"] = [r["median_ms"] for r in got]
                        row[side] = best
                e_npy = e_out + "-0.npy"
                row["diff_ember_upstream"] = max_abs_diff(e_npy, u_out)
                row["diff_ember_ort"] = max_abs_diff(e_npy, o_out)
                row["diff_upstream_ort"] = max_abs_diff(u_out, o_out)
                row["max_abs_output"] = {"ember": max_abs(e_npy), "upstream": max_abs(u_out),
                                         "ort": max_abs(o_out)}
                e_ms = row.get("ember", {}).get("median_ms")
                u_ms = row.get("upstream", {}).get("median_ms")
                o_ms = row.get("ort", {}).get("median_ms")
                row["ember_over_upstream"] = round_ratio(runs, "ember", "upstream")
                row["ember_over_ort"] = round_ratio(runs, "ember", "ort")
                rows.append(row)
                print(f"| {name} | {dtype} | {t} | {fmt(e_ms)} | {fmt(u_ms)} | {fmt(o_ms)} "
                      f"| {fmt(row['ember_over_upstream'])} | {fmt(row['ember_over_ort'])} "
                      f"| {fmt_diff(row['diff_ember_upstream'])} | {fmt_diff(row['diff_ember_ort'])} |",
                      flush=True)
                for err in row["errors"]:
                    print(f"<!-- {tag}: {err} -->", flush=True)
                for f in glob.glob(os.path.join(tmp, tag + "*")):
                    os.remove(f)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("\nMedian ratio (below 1: Ember faster):\n")
    print("| dtype | threads | Ember/upstream | Ember/ORT | rows timed |")
    print("|---|---|---:|---:|---:|")
    summary = []
    for dtype in dtypes:
        for t in threads + ["all"]:
            sel = [r for r in rows if r["dtype"] == dtype and (t == "all" or r["threads"] == t)]
            if not sel:
                continue
            eu = [r["ember_over_upstream"] for r in sel if r["ember_over_upstream"]]
            eo = [r["ember_over_ort"] for r in sel if r["ember_over_ort"]]
            s = {"dtype": dtype, "threads": t, "rows": len(eu),
                 "ember_over_upstream": statistics.median(eu) if eu else None,
                 "ember_over_ort": statistics.median(eo) if eo else None}
            summary.append(s)
            print(f"| {dtype} | {t} | {fmt(s['ember_over_upstream'])} "
                  f"| {fmt(s['ember_over_ort'])} | {len(eu)} |")
    elapsed = time.time() - t_start
    print(f"\n{len(rows)} rows in {elapsed:.0f} s. max|Δ|: Ember's output against upstream's "
          f"(same program, same input; int8: a quantization step or so is rounding) and "
          f"against ORT's (fp32; same model exported to ONNX).")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"started": started, "elapsed_s": elapsed, "cpu": cpu,
                       "versions": ver, "iters": args.iters, "rounds": args.rounds, "threads": threads,
                       "runner": runner, "models_dir": os.path.abspath(args.models),
                       "rows": rows, "summary": summary}, f, indent=1)
        print(f"Raw numbers: {args.json}")


if __name__ == "__main__":
    main()
