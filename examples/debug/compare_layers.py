#!/usr/bin/env python3
# Product tool: correctness, layer by layer: Ember's values against PyTorch's (for speed
# per layer class against ONNX Runtime, see bench/compare_layers.py).
"""Layer-by-layer comparison with PyTorch in one command: export a model with
goldens (export_with_goldens.py), run it in Ember's executor_runner with
--compare_intermediates, print the runner's table, exit with its status.

Usage (from the repository root, after building executor_runner):

  python examples/debug/compare_layers.py MODEL FLOW
         [--out DIR] [--runner PATH] [--plant_fault N]
         [--rtol R] [--atol A] [--skip_export] [-- EXTRA RUNNER FLAGS]

  MODEL        resnet50 | transformer_block
  FLOW         portable | xnnpack
  --out        where the program, goldens and the runner's values go
               (default .debug/compare/MODEL_FLOW[_faultN])
  --runner     executor_runner binary (default build/examples/executor_runner)
  --plant_fault N  export the variant whose Nth operator is wrong (see
               export_with_goldens.py --list_ops); the goldens stay PyTorch's
               values of the correct model, so the runner should name that
               instruction as the first divergence; this script prints the
               instruction it planted for you to check against the table
  --rtol, --atol   passed to the runner (default 1e-3 and 1e-5: float32
               kernels summing in another order than PyTorch's differ by a
               few ulps, relatively large where a value is near zero; the
               runner's own defaults, 1e-5 and 1e-8, are for bundled tests)
  --skip_export    reuse DIR's model.pte and goldens

The runner is called as
  executor_runner --model_path=DIR/model.pte --inputs=DIR/input0.npy
      --intermediates_dir=DIR/runtime --compare_intermediates=DIR/golden
      --print_output=none --rtol=R --atol=A EXTRA...
(later flags win, so EXTRA can say --print_output=summary).
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", choices=["resnet50", "transformer_block"])
    p.add_argument("flow", choices=["portable", "xnnpack"])
    p.add_argument("--out")
    p.add_argument("--runner", default=os.path.join(ROOT, "build", "examples", "executor_runner"))
    p.add_argument("--plant_fault", type=int, metavar="N")
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--atol", type=float, default=1e-5)
    p.add_argument("--skip_export", action="store_true")
    a = p.parse_args(argv)

    suffix = f"_fault{a.plant_fault}" if a.plant_fault is not None else ""
    out = a.out or os.path.join(ROOT, ".debug", "compare", f"{a.model}_{a.flow}{suffix}")
    if not os.path.isfile(a.runner) or not os.access(a.runner, os.X_OK):
        print(f"error: no executor_runner at {a.runner} (build it, or pass --runner)",
              file=sys.stderr)
        return 2

    if a.skip_export:
        with open(os.path.join(out, "export_info.json")) as f:
            info = json.load(f)
        inputs = sorted(os.path.join(out, n) for n in os.listdir(out)
                        if n.startswith("input") and n.endswith(".npy"))
        exported = {"pte": os.path.join(out, "model.pte"), "inputs": inputs,
                    "golden_dir": os.path.join(out, "golden"), "info": info}
    else:
        import export_with_goldens

        exported = export_with_goldens.export_with_goldens(
            a.model, a.flow, out, a.plant_fault, log=lambda s: print(s, flush=True))
        info = exported["info"]

    def shown(path):  # relative to the working directory when under it
        rel = os.path.relpath(path)
        return path if rel.startswith("..") else rel

    runtime_dir = os.path.join(out, "runtime")
    os.makedirs(runtime_dir, exist_ok=True)
    cmd = [shown(a.runner), f"--model_path={shown(exported['pte'])}",
           f"--inputs={','.join(shown(p) for p in exported['inputs'])}",
           f"--intermediates_dir={shown(runtime_dir)}",
           f"--compare_intermediates={shown(exported['golden_dir'])}",
           "--print_output=none"]
    if a.rtol is not None:
        cmd.append(f"--rtol={a.rtol}")
    if a.atol is not None:
        cmd.append(f"--atol={a.atol}")
    cmd += extra
    print("$ " + " ".join(cmd), flush=True)
    status = subprocess.call(cmd)
    fault = info.get("planted_fault")
    if fault:
        keys = ", ".join(fault.get("instruction_keys") or []) or "(not found in the program)"
        print(f"planted fault: {fault['node']} {fault['correct']} -> {fault['planted']} "
              f"at {keys}; source: {fault.get('stack_trace')}")
    print(f"executor_runner exited with status {status}")
    return status


if __name__ == "__main__":
    sys.exit(main())
