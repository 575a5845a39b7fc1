#!/usr/bin/env python3
"""Load time of two builds of executor_runner on the same files, measured
in one run: program load plus method load, as the runner prints it
("Program loaded in X ms; method 'forward' in Y ms"), in fresh processes,
the two runners alternating so that both see the same machine.

  python bench/compare_load_time.py --before OLD/executor_runner \\
      --after build/examples/executor_runner --runs 9 MODEL.pte...

Prints, per model, the median of each and after/before (below 1: faster).
Used for issue 28's "load time does not get worse"; results in
docs/performance.md.
"""
import argparse
import re
import statistics
import subprocess

PATTERN = re.compile(r"Program loaded in ([0-9.]+) ms; method '\w+' in ([0-9.]+) ms")


def load_ms(runner, model):
    out = subprocess.run([runner, f"--model_path={model}", "--num_executions=1"],
                         capture_output=True, text=True, check=True)
    m = PATTERN.search(out.stdout + out.stderr)
    if m is None:
        raise RuntimeError(f"{runner} printed no load time for {model}")
    return float(m.group(1)) + float(m.group(2))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--before", required=True)
    p.add_argument("--after", required=True)
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("models", nargs="+")
    args = p.parse_args()
    print(f"{'model':40s} {'before ms':>10s} {'after ms':>10s} {'after/before':>12s}")
    for model in args.models:
        before, after = [], []
        for _ in range(args.runs):
            before.append(load_ms(args.before, model))
            after.append(load_ms(args.after, model))
        b, a = statistics.median(before), statistics.median(after)
        print(f"{model.split('/')[-1]:40s} {b:10.2f} {a:10.2f} {a / b:12.3f}")


if __name__ == "__main__":
    main()
