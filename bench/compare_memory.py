#!/usr/bin/env python3
"""Peak memory: Ember's executor_runner against upstream ExecuTorch's Python
runtime (executorch 1.5.1 portable_lib) on the same XNNPACK-delegated
files, in one run, fresh processes, alternating.

  python bench/compare_memory.py --runner build/examples/executor_runner \\
      [--models .bench/models] [--only resnet50,mobilenet_v2] [--rounds 3] \\
      [--loaders mmap,file] [--json out.json]

Measured per model (the <name>.fp32.pte and <name>.input.npy files that
bench/bench_models.py writes): peak RSS growth from before the program is
loaded to after two executions.

- Ember: executor_runner --memory_report's peak growth (VmHWM at the end
  minus VmRSS before the program is loaded, both read by the runner).
- Upstream: in a child with torch and executorch imported, the peak RSS
  is reset (/proc/self/clear_refs, 5) and the RSS read; the program is
  loaded with _load_for_executorch (mmap) and executed twice; growth is
  VmHWM minus that RSS.

Both read the same bytes and run the same delegate blobs. Printed: MB of
growth, Ember/upstream, and Ember's growth over the file size (the target
for fp32 CNNs is at most 1.2x: weights held once, plus activations and
workspace). Medians over rounds.
"""
import argparse
import json
import re
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_upstream import cpu_info, versions  # noqa: E402

DEFAULT_MODELS = "resnet50,efficientnet_b0,mobilenet_v2,vit_small"


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def child_upstream(pte, inp):
    import numpy as np
    import torch
    from executorch.extension.pybindings import portable_lib as et
    torch.set_num_threads(1)
    et._unsafe_reset_threadpool(1)
    x = torch.from_numpy(np.load(inp))
    with open("/proc/self/clear_refs", "w") as f:  # peak RSS := current RSS
        f.write("5")
    base = status_kb("VmRSS")
    m = et._load_for_executorch(pte)
    for _ in range(2):
        m.forward((x.clone(),))
    return {"growth_kb": status_kb("VmHWM") - base}


def run_upstream(pte, inp):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", pte, inp],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["growth_kb"]


GROWTH = re.compile(r"peak growth over 'before load': ([0-9.]+) MiB")


def run_ember(runner, pte, inp, loader):
    out = subprocess.run([runner, f"--model_path={pte}", f"--inputs={inp}",
                          "--num_executions=2", "--threads=1", "--print_output=none",
                          f"--loader={loader}", "--memory_report"],
                         capture_output=True, text=True, check=True)
    return float(GROWTH.search(out.stdout).group(1)) * 1024


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child_upstream(sys.argv[2], sys.argv[3])))
        return
    p = argparse.ArgumentParser()
    p.add_argument("--runner", required=True)
    p.add_argument("--models", default=".bench/models")
    p.add_argument("--only", default=DEFAULT_MODELS)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--loaders", default="mmap,file")
    p.add_argument("--json")
    args = p.parse_args()
    loaders = args.loaders.split(",")
    cpu = cpu_info()
    print(f"CPU: {cpu['model_name']} ({cpu['logical_cpus']} logical); peak RSS growth, MiB")
    head = " ".join(f"{'Ember ' + l:>11}" for l in loaders)
    print(f"{'model':<16} {'file MB':>8} {'upstream':>9} {head} {'Ember/up':>9} {'Ember/file':>10}")
    rows = []
    for name in args.only.split(","):
        pte = os.path.join(args.models, f"{name}.fp32.pte")
        inp = os.path.join(args.models, f"{name}.input.npy")
        if not (os.path.exists(pte) and os.path.exists(inp)):
            print(f"{name:<16} missing ({pte}); run bench/bench_models.py")
            continue
        up, em = [], {l: [] for l in loaders}
        for _ in range(args.rounds):
            up.append(run_upstream(pte, inp))
            for l in loaders:
                em[l].append(run_ember(args.runner, pte, inp, l))
        file_mb = os.path.getsize(pte) / 2**20
        up_mb = statistics.median(up) / 1024
        em_mb = {l: statistics.median(v) / 1024 for l, v in em.items()}
        first = em_mb[loaders[0]]
        cols = " ".join(f"{em_mb[l]:>11.1f}" for l in loaders)
        print(f"{name:<16} {file_mb:>8.1f} {up_mb:>9.1f} {cols} {first / up_mb:>8.2f}x "
              f"{first / file_mb:>9.2f}x")
        rows.append({"model": name, "file_mb": file_mb, "upstream_mb": up_mb,
                     "ember_mb": em_mb})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu, "versions": versions(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
