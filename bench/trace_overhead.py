#!/usr/bin/env python3
"""What event tracing costs, measured as ratios in one run.

1. No tracer attached: this build's executor_runner against a runner built
   from a commit before tracing existed (--base_runner), same model, same
   inputs, rounds interleaved so both see the same machine state. The
   ratio new/base of the median execution time should be 1 within noise.
2. Profiling on: the same runner with and without --profile; the
   difference divided by the instructions per run is the cost per traced
   instruction (the runner's own estimate, printed with --profile, is
   shown beside it).

    python3 bench/trace_overhead.py --base_runner=/path/to/old/executor_runner \
        --model .bench/models/resnet18.portable.pte:.bench/models/resnet18.input.npy

Prints one table; nothing is asserted (timings are not tests).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run_once(runner, model, inputs, executions, extra, threads, flags):
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "r.json")
        cmd = [runner, f"--model_path={model}", f"--num_executions={executions}",
               "--print_output=none", f"--report={report}", f"--threads={threads}"]
        if inputs:
            cmd.append(f"--inputs={inputs}")
        subprocess.run(cmd + flags + extra, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(report) as f:
            return json.load(f)


def median_ms(report):
    return report["cases"][0]["median_ms"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runner", default="build/examples/executor_runner")
    ap.add_argument("--base_runner", required=True,
                    help="executor_runner built from a commit without event tracing")
    ap.add_argument("--model", action="append", required=True,
                    help="MODEL.pte[:INPUT.npy], repeatable")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--executions", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--flags", default="",
                    help="extra runner flags for every run, space-separated (e.g. "
                         "--fusion=false, so that kernel changes since the base "
                         "commit do not mix in)")
    args = ap.parse_args()
    flags = args.flags.split()

    print(f"CPU: {cpu_name()}; {os.cpu_count()} cores; threads={args.threads}; "
          f"{args.rounds} interleaved rounds x {args.executions} executions; median of "
          f"the per-round medians; flags: {args.flags or 'none'}")
    print(f"{'model':28} {'base ms':>9} {'new ms':>9} {'new/base':>9} "
          f"{'profile ms':>11} {'ns/instr':>9} {'runner est.':>11}")
    for spec in args.model:
        model, _, inputs = spec.partition(":")
        base, new, prof = [], [], []
        est = None
        instructions = None
        for _ in range(args.rounds):
            base.append(median_ms(run_once(args.base_runner, model, inputs,
                                           args.executions, [], args.threads, flags)))
            new.append(median_ms(run_once(args.runner, model, inputs, args.executions, [],
                                          args.threads, flags)))
            r = run_once(args.runner, model, inputs, args.executions, ["--profile"],
                         args.threads, flags)
            prof.append(median_ms(r))
            m = r["profile"]["methods"][0]
            po = m["profiling_overhead"]
            instructions = po["instructions_per_run"] + po["delegate_events_per_run"]
            est = po["ns_per_kernel_instruction"]
        b, n, p = (statistics.median(x) for x in (base, new, prof))
        per_instr_ns = (p - n) * 1e6 / instructions if instructions else float("nan")
        print(f"{os.path.basename(model):28} {b:9.3f} {n:9.3f} {n / b:9.3f} {p:11.3f} "
              f"{per_instr_ns:9.0f} {est:9.0f}ns")


if __name__ == "__main__":
    main()
