#!/usr/bin/env python3
# Product tool: checks by hand that upstream's Inspector reads Ember's ETDump files.
"""Check, by hand, that upstream's Inspector (executorch 1.5.1) reads the
ETDump and debug buffer Ember's executor_runner writes.

Usage (from the repository root, after building executor_runner):

  python examples/debug/check_inspector.py [--models transformer_block,resnet50]
         [--flows portable,xnnpack] [--runner PATH] [--out DIR]
         [--runtime ember|upstream]

For each model and flow:
  1. exports it with export_with_goldens.py (ETRecord with the input as
     representative input, emit_stacktrace) into OUT/MODEL_FLOW;
  2. runs executor_runner twice:
       --etdump_path=debug.etdp --debug_buffer_path=debug.bin
         --dump_intermediate_outputs        (the values of every instruction)
       --etdump_path=profile.etdp           (timing only)
  3. loads both with executorch.devtools.Inspector(etdump_path, etrecord,
     debug_buffer_path), prints a few rows of its event table, and
     calculate_numeric_gap("MSE") on the debug run;
  4. checks: the profile run has OPERATOR_CALL or DELEGATE_CALL events with
     finite, non-negative times; the numeric gap has a row per operator
     (at least one), every row has runtime values from the ETDump and a
     finite gap.
Exits 0 when every check passed, 1 otherwise (each failure is printed).

--runtime upstream runs the same checks on an ETDump written by upstream's
own Python runtime (executorch.extension.pybindings), as a control.
Default OUT: .debug/inspector.
"""

import argparse
import math
import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)


def run_ember(runner, exported, etdump, debug_buffer=None):
    cmd = [runner, f"--model_path={exported['pte']}",
           f"--inputs={','.join(exported['inputs'])}", "--print_output=none",
           f"--etdump_path={etdump}"]
    if debug_buffer:
        cmd += [f"--debug_buffer_path={debug_buffer}", "--dump_intermediate_outputs"]
    print("  $ " + " ".join(os.path.relpath(c) if os.path.exists(c) else c for c in cmd),
          flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"executor_runner exited with {r.returncode}:\n{r.stdout[-3000:]}")


def run_upstream(exported, etdump, debug_buffer=None):
    import numpy as np
    import torch
    from executorch.extension.pybindings.portable_lib import _load_for_executorch

    m = _load_for_executorch(exported["pte"], enable_etdump=True,
                             debug_buffer_size=(512 << 20) if debug_buffer else 0)
    m.run_method("forward", tuple(torch.from_numpy(np.load(p)) for p in exported["inputs"]))
    m.write_etdump_result_to_file(etdump, debug_buffer)


def _short(text, limit=400):
    """Error messages from the Inspector can hold whole tensors."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit // 3] + " ... " + text[-2 * limit // 3:]


def _finite_number(x):
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def _has_values(v):
    import torch

    if v is None:
        return False
    if isinstance(v, (list, tuple)):
        return len(v) > 0 and all(_has_values(x) for x in v)
    if isinstance(v, torch.Tensor):
        return v.numel() > 0 or v.dim() > 0
    return True


def check_profile(inspector, failures, tag):
    df = inspector.to_dataframe()
    calls = df[df["event_name"].isin(["OPERATOR_CALL", "DELEGATE_CALL"])]
    print(f"  profile run: {len(df)} events, {len(calls)} OPERATOR_CALL/DELEGATE_CALL")
    cols = [c for c in ["event_block_name", "event_name", "raw", "p50", "is_delegated_op"]
            if c in df.columns]
    print(df[cols].head(8).to_string(max_colwidth=40))
    if len(calls) == 0:
        failures.append(f"{tag}: the profile ETDump has no OPERATOR_CALL/DELEGATE_CALL events")
    for _, row in calls.iterrows():
        raw = row.get("raw") or []
        if not raw or not all(_finite_number(t) and float(t) >= 0 for t in raw):
            failures.append(f"{tag}: event {row['event_name']} has times {raw!r}")
            break


def _reshaping_mse(first_of_runtime_lists=False):
    """MSE that first views the runtime value in the AOT value's shape when
    the two hold the same number of elements. executorch 1.5.1's Inspector
    pairs the ATen nodes of `x.transpose(...).reshape(...)` (clone +
    _unsafe_view, one debug handle) with the runtime's clone output, whose
    shape is the transpose's, and its MSE then fails to broadcast; this
    happens with upstream's own runtime too (check with --runtime upstream)."""
    import torch
    from executorch.devtools.inspector._inspector_utils import convert_to_float_tensor
    from executorch.devtools.inspector.numerical_comparator.mse_numerical_comparator import (
        MSEComparator,
    )

    class ReshapingMSE(MSEComparator):
        def preprocessing(self, mapping):
            if not first_of_runtime_lists:
                return mapping
            fixed = {}
            for aot, (handle, value) in mapping.items():
                if isinstance(aot[1], torch.Tensor) and isinstance(value, (list, tuple)) and value:
                    value = value[0]
                fixed[aot] = (handle, value)
            return fixed

        def element_compare(self, a, b):
            t_a, t_b = convert_to_float_tensor(a), convert_to_float_tensor(b)
            if t_a.shape != t_b.shape and t_a.numel() == t_b.numel():
                t_b = t_b.reshape(t_a.shape)
            return super().element_compare(t_a, t_b)

    return ReshapingMSE()


def check_gap(inspector, failures, tag):
    try:
        gap = inspector.calculate_numeric_gap("MSE")
    except ValueError as e:
        print(f"  calculate_numeric_gap('MSE') raised (upstream Inspector): {_short(str(e))}")
        print("  retrying with an MSE comparator that views same-sized values in the AOT shape")
        try:
            gap = inspector.calculate_numeric_gap(_reshaping_mse())
        except ValueError as e2:
            if "must be sequences" not in str(e2):
                raise
            # A runtime value is a tensor list where the ATen node gives one
            # tensor. Fail, but say how the rest of the dump compares.
            failures.append(f"{tag}: calculate_numeric_gap: {_short(str(e2))}")
            print(f"  FAILED: {_short(str(e2))}")
            gap = inspector.calculate_numeric_gap(_reshaping_mse(first_of_runtime_lists=True))
            print("  diagnostic only (counted as failed): with element 0 of each such "
                  "runtime list,")
    print(f"  calculate_numeric_gap('MSE'): {len(gap)} rows")
    show = gap[[c for c in ["aot_ops", "runtime_ops", "gap"] if c in gap.columns]]
    print(show.head(12).to_string(max_colwidth=60))
    if len(gap) > 12:
        print(f"  ... {len(gap) - 12} more rows; largest gap: {max(float(g[0]) if isinstance(g, list) else float(g) for g in gap['gap']):.3g}")
    if len(gap) == 0:
        failures.append(f"{tag}: calculate_numeric_gap returned no rows")
        return
    for i, row in gap.iterrows():
        if not _has_values(row["runtime_intermediate_output"]):
            failures.append(f"{tag}: row {i} ({row['runtime_ops']}) has no runtime values")
            break
        gaps = row["gap"] if isinstance(row["gap"], (list, tuple)) else [row["gap"]]
        if not gaps or not all(_finite_number(g) for g in gaps):
            failures.append(f"{tag}: row {i} ({row['aot_ops']}) has gap {row['gap']!r}")
            break


def check_one(model, flow, args, failures):
    import export_with_goldens
    from executorch.devtools import Inspector

    tag = f"{model}/{flow}"
    print(f"== {tag}", flush=True)
    out = os.path.join(args.out, f"{model}_{flow}")
    exported = export_with_goldens.export_with_goldens(
        model, flow, out, log=lambda s: print("  " + s, flush=True))
    debug_etdump = os.path.join(out, "debug.etdp")
    debug_buffer = os.path.join(out, "debug.bin")
    profile_etdump = os.path.join(out, "profile.etdp")
    for p in (debug_etdump, debug_buffer, profile_etdump):
        if os.path.exists(p):
            os.remove(p)
    if args.runtime == "ember":
        run_ember(args.runner, exported, debug_etdump, debug_buffer)
        run_ember(args.runner, exported, profile_etdump)
    else:
        run_upstream(exported, debug_etdump, debug_buffer)
        run_upstream(exported, profile_etdump)

    prof = Inspector(etdump_path=profile_etdump, etrecord=exported["etrecord"])
    check_profile(prof, failures, tag)
    dbg = Inspector(etdump_path=debug_etdump, etrecord=exported["etrecord"],
                    debug_buffer_path=debug_buffer)
    check_gap(dbg, failures, tag)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default="transformer_block,resnet50")
    p.add_argument("--flows", default="portable,xnnpack")
    p.add_argument("--runner", default=os.path.join(ROOT, "build", "examples", "executor_runner"))
    p.add_argument("--out", default=os.path.join(ROOT, ".debug", "inspector"))
    p.add_argument("--runtime", choices=["ember", "upstream"], default="ember")
    a = p.parse_args(argv)
    if a.runtime == "ember" and not os.access(a.runner, os.X_OK):
        print(f"error: no executor_runner at {a.runner} (build it, or pass --runner)",
              file=sys.stderr)
        return 2
    failures = []
    for model in a.models.split(","):
        for flow in a.flows.split(","):
            try:
                check_one(model, flow, a, failures)
            except Exception as e:  # report and go on with the next case
                where = traceback.extract_tb(e.__traceback__)[-1]
                message = _short(f"{type(e).__name__}: {e}")
                print(f"  FAILED at {where.filename}:{where.lineno}: {message}")
                failures.append(f"{model}/{flow}: {message}")
    print()
    if failures:
        print(f"FAILED ({len(failures)}):")
        for f in failures:
            print("  " + f)
        return 1
    print(f"OK: Inspector read {a.runtime}'s ETDumps for {a.models} x {a.flows}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
