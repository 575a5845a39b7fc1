#!/usr/bin/env python3
# Product tool (benchmark): speed per layer class, Ember's XNNPACK delegate against ONNX
# Runtime (for correctness layer by layer against PyTorch, see examples/debug/compare_layers.py).
"""Where the time goes, layer class by layer class: Ember's XNNPACK
delegate against ONNX Runtime on the same model (bench_models.py's
<name>.fp32.pte and <name>.fp32.onnx) and the same input.

  Ember  build/examples/executor_runner --etdump_path: XNNPACK's own
         per-operator times (the delegate's "#<i>" events), median over
         --iters executions after one warm-up.
  ORT    SessionOptions.enable_profiling: per-node kernel times, median over
         the same number of runs after one warm-up; intra_op_num_threads=T,
         ORT_ENABLE_ALL, sequential.

Layer classes: each runtime's convolutions are paired in graph order (the
k-th convolution operator of Ember's XNNPACK graph with the k-th Conv node
of the ONNX graph, both from the same torch.export / TorchScript trace of
one module) and classed by the ONNX node's kernel, stride and groups:
"conv 3x3", "conv 3x3 s2", "conv 1x1", "conv 7x7 s2", "depthwise 7x7",
"grouped 3x3", ...; ORT's own nodes (after its fusions and NCHWc layout
change) are classed the same way from the graph ORT optimized; the report
names the XNNPACK operator that ran each class. Other operators are
classed by kind on each side: fully connected (Gemm / MatMul), layer norm,
GELU, pooling, elementwise, softmax, data movement (transpose, reshape,
pad, concat) and "other"; those totals are matched by class, not per node.

Usage:
  python bench/compare_layers.py --models /path/to/models --only resnet18,convnext_tiny
      [--threads 1] [--iters 20] [--runner build/examples/executor_runner]
      [--markdown out.md] [--json out.json]
"""

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

from machine import cpu_description


# ------------------------------------------------------------------ ONNX side

def onnx_conv_classes(onnx_path):
    """Conv nodes in graph order: (name, class)."""
    import onnx
    from onnx import shape_inference
    m = shape_inference.infer_shapes(onnx.load(onnx_path))
    shapes = {}
    for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        shapes[vi.name] = dims
    inits = {i.name: list(i.dims) for i in m.graph.initializer}
    convs = []
    for node in m.graph.node:
        if node.op_type != "Conv":
            continue
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        w = inits.get(node.input[1]) or shapes.get(node.input[1]) or []
        k = attrs.get("kernel_shape") or (w[2:] if len(w) == 4 else [0, 0])
        s = attrs.get("strides", [1, 1])
        g = attrs.get("group", 1)
        convs.append((node.name,) + conv_label(k, s, g, w))
    return convs


def conv_label(k, s, g, w):
    """(label, kind) of a convolution: kernel, stride, groups, weight dims."""
    kind = "depthwise" if g > 1 and len(w) == 4 and w[1] == 1 else ("grouped" if g > 1 else "conv")
    return f"{kind} {k[0]}x{k[1]}" + (f" s{s[0]}" if s[0] != 1 else ""), kind


def ort_node_classes(onnx_path, threads):
    """The graph ORT runs after its optimizations: node name -> class."""
    import onnx
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.optimized_model_filepath = os.path.join(tempfile.mkdtemp(), "optimized.onnx")
    so.log_severity_level = 3
    ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
    m = onnx.load(so.optimized_model_filepath)
    inits = {i.name: list(i.dims) for i in m.graph.initializer}
    classes = {}
    for node in m.graph.node:
        if node.op_type in ("Conv", "FusedConv"):
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
            w = inits.get(node.input[1], [])
            k = attrs.get("kernel_shape") or (w[2:] if len(w) == 4 else [0, 0])
            classes[node.name] = conv_label(k, attrs.get("strides", [1, 1]), attrs.get("group", 1), w)[0]
        elif node.op_type in ("ReorderInput", "ReorderOutput"):
            classes[node.name] = "data movement"
        else:
            classes[node.name] = onnx_class(node.op_type)
    return classes


def onnx_class(op):
    table = {
        "Gemm": "fully connected", "MatMul": "fully connected", "FusedMatMul": "fully connected",
        "LayerNormalization": "layer norm", "SimplifiedLayerNormalization": "layer norm",
        "Gelu": "GELU", "BiasGelu": "GELU", "FastGelu": "GELU", "Erf": "GELU",
        "MaxPool": "pooling", "AveragePool": "pooling", "GlobalAveragePool": "pooling",
        "ReduceMean": "pooling",
        "Add": "elementwise", "Mul": "elementwise", "Div": "elementwise", "Sub": "elementwise",
        "Relu": "elementwise", "Sigmoid": "elementwise", "HardSigmoid": "elementwise",
        "HardSwish": "elementwise", "Clip": "elementwise", "Sqrt": "elementwise", "Pow": "elementwise",
        "Softmax": "softmax",
        "Transpose": "data movement", "Reshape": "data movement", "Flatten": "data movement",
        "Concat": "data movement", "Pad": "data movement", "Slice": "data movement",
        "Gather": "data movement", "Split": "data movement", "Squeeze": "data movement",
        "Unsqueeze": "data movement", "Expand": "data movement", "Roll": "data movement",
    }
    return table.get(op, "other")


def run_ort(onnx_path, x, threads, iters):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.enable_profiling = True
    so.profile_file_prefix = os.path.join(tempfile.mkdtemp(), "ort")
    sess = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    for _ in range(iters + 1):
        sess.run(None, {name: x})
    prof = sess.end_profiling()
    with open(prof) as f:
        events = json.load(f)
    runs = [e for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"]
    per_node = collections.defaultdict(list)  # name -> [us per run]
    ops = {}
    for e in events:
        if e.get("cat") != "Node" or not e.get("name", "").endswith("_kernel_time"):
            continue
        node = e["name"][: -len("_kernel_time")]
        per_node[node].append(e["dur"])
        ops[node] = e.get("args", {}).get("op_name", "?")
    # Drop the warm-up run: each node's first event.
    med = {n: statistics.median(v[1:] if len(v) > 1 else v) / 1000.0 for n, v in per_node.items()}
    total = statistics.median(e["dur"] for e in runs[1:]) / 1000.0 if len(runs) > 1 else sum(med.values())
    order = list(per_node.keys())  # first-seen order = execution order
    return order, med, ops, total


# ----------------------------------------------------------------- Ember side

def run_ember(runner, pte, npy, threads, iters):
    from executorch.devtools.etdump.serialize import deserialize_from_etdump_flatcc
    d = tempfile.mkdtemp()
    etdump = os.path.join(d, "run.etdp")
    cmd = [runner, f"--model_path={pte}", f"--inputs={npy}", f"--threads={threads}",
           f"--num_executions={iters + 1}", f"--etdump_path={etdump}",
           "--event_buffer_size=67108864"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()[-800:]}")
    with open(etdump, "rb") as f:
        et = deserialize_from_etdump_flatcc(f.read())
    # Keyed by position in the run: XNNPACK numbers its operators per
    # runtime, so two delegates both have a "#1".
    per_op = collections.defaultdict(list)
    names = {}
    execute = []
    for run in et.run_data:
        if run.name != "Execute":
            continue
        k = 0
        for ev in run.events or []:
            pe = ev.profile_event
            if pe is None:
                continue
            name = pe.name or pe.delegate_debug_id_str or ""
            if name == "Method::execute":
                execute.append((pe.end_time - pe.start_time) / 1e6)
            elif (" #" in name or name.startswith("native_call_") or name.startswith("fused:")
                  or name.startswith("native:")):
                per_op[k].append((pe.end_time - pe.start_time) / 1e6)
                names[k] = f"{name} @{k}"
                k += 1
    med = {names[k]: statistics.median(v[1:] if len(v) > 1 else v) for k, v in per_op.items()}
    order = [names[k] for k in sorted(per_op)]
    total = statistics.median(execute[1:]) if len(execute) > 1 else sum(med.values())
    return order, med, total


def operator_kind(name):
    """An event name without its instance: "Convolution (NHWC, F32) IGEMM"
    from "... IGEMM #3 @7", "native:<route>" from "native:<route> 1: nodes
    7-7 @12"."""
    name = name.rsplit(" @", 1)[0]
    if name.startswith("native:"):
        return name.split(" ", 1)[0]
    return name.split(" #", 1)[0]


def ember_class(name):
    n = name.split(" @")[0]
    if n.startswith("native_call_") or n.startswith("fused:"):
        op = n[len("native_call_"):] if n.startswith("native_call_") else n
        for key, cls in (("convolution", "conv"), ("layer_norm", "layer norm"), ("gelu", "GELU"),
                         ("linear", "fully connected"), ("addmm", "fully connected"), ("mm.", "fully connected"),
                         ("bmm", "fully connected"), ("pool", "pooling"), ("mean", "pooling"),
                         ("softmax", "softmax"), ("permute", "data movement"), ("view", "data movement"),
                         ("clone", "data movement"), ("cat", "data movement"), ("pad", "data movement"),
                         ("slice", "data movement"), ("roll", "data movement"), ("expand", "data movement"),
                         ("add", "elementwise"), ("mul", "elementwise"), ("div", "elementwise"),
                         ("sub", "elementwise"), ("relu", "elementwise"), ("sigmoid", "elementwise")):
            if key in op:
                return cls
        return "other"
    if n.startswith("native:"):  # a native step of the XNNPACK delegate (xnn_routing.cpp)
        return "conv" if "convolution" in n else "other"
    n = n.split(" #")[0]
    if n.startswith("Convolution") or n.startswith("Deconvolution"):
        return "conv"
    if n.startswith("Fully Connected") or "Batch Matrix Multiply" in n:
        return "fully connected"
    if "Pooling" in n or "Mean" in n:
        return "pooling"
    if n.startswith("Softmax"):
        return "softmax"
    if "Elementwise" in n or n.startswith("Clamp") or n.startswith("Sigmoid") or n.startswith("HardSwish"):
        return "GELU" if "GELU" in n.upper() else "elementwise"
    if any(k in n for k in ("Transpose", "Copy", "Constant Pad", "Concatenate", "Slice", "Resize")):
        return "data movement"
    if "Normalization" in n or "Layer Norm" in n:
        return "layer norm"
    return "other"


# ------------------------------------------------------------------ compare

def compare(name, args):
    import numpy as np
    pte = os.path.join(args.models, f"{name}.fp32.pte")
    onnx_path = os.path.join(args.models, f"{name}.fp32.onnx")
    npy = os.path.join(args.models, f"{name}.input.npy")
    x = np.load(npy)
    e_order, e_ms, e_total = run_ember(args.runner, pte, npy, args.threads, args.iters)
    o_order, o_ms, o_ops, o_total = run_ort(onnx_path, x, args.threads, args.iters)
    convs = onnx_conv_classes(onnx_path)

    rows = collections.OrderedDict()
    engines = {}  # conv class -> the XNNPACK operators that ran it

    def add(cls, side, ms, n=1):
        r = rows.setdefault(cls, {"ember_ms": 0.0, "ort_ms": 0.0, "ember_n": 0, "ort_n": 0})
        r[side + "_ms"] += ms
        r[side + "_n"] += n

    e_convs = [n for n in e_order if ember_class(n) == "conv"]
    if len(e_convs) != len(convs):
        raise RuntimeError(f"{name}: Ember has {len(e_convs)} convolution operators, the ONNX graph "
                           f"{len(convs)} Conv nodes: cannot pair them")
    for ename, (oname, label, kind) in zip(e_convs, convs):
        add(label, "ember", e_ms[ename])
        engines.setdefault(label, set()).add(operator_kind(ename))
    for n in e_order:
        if ember_class(n) != "conv":
            add(ember_class(n), "ember", e_ms[n])
    o_classes = ort_node_classes(onnx_path, args.threads)
    for n in o_order:
        add(o_classes.get(n) or onnx_class(o_ops.get(n, "?")), "ort", o_ms[n])
    e_other = e_total - sum(e_ms.values())
    o_other = o_total - sum(o_ms.values())
    add("outside operators", "ember", max(e_other, 0.0), 0)
    add("outside operators", "ort", max(o_other, 0.0), 0)
    return {"model": name, "threads": args.threads, "ember_total_ms": e_total, "ort_total_ms": o_total,
            "classes": rows, "ember_conv_operators": {k: sorted(v) for k, v in engines.items()}}


def markdown(result):
    lines = [f"**{result['model']}**, {result['threads']} thread(s): Ember "
             f"{result['ember_total_ms']:.2f} ms, ORT {result['ort_total_ms']:.2f} ms, "
             f"Ember/ORT {result['ember_total_ms'] / result['ort_total_ms']:.2f}", "",
             "| layer class | layers (Ember / ORT) | Ember ms | ORT ms | Ember/ORT | share of the gap |",
             "|---|---|---|---|---|---|"]
    gap = result["ember_total_ms"] - result["ort_total_ms"]
    for cls, r in sorted(result["classes"].items(), key=lambda kv: -kv[1]["ember_ms"]):
        ratio = f"{r['ember_ms'] / r['ort_ms']:.2f}" if r["ort_ms"] > 0 else "-"
        share = f"{100 * (r['ember_ms'] - r['ort_ms']) / gap:+.0f}%" if gap > 0 else "-"
        lines.append(f"| {cls} | {r['ember_n']} / {r['ort_n']} | {r['ember_ms']:.3f} | {r['ort_ms']:.3f} "
                     f"| {ratio} | {share} |")
    lines.append("")
    for cls, ops in result["ember_conv_operators"].items():
        lines.append(f"- {cls}: Ember ran it as {', '.join(ops)}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=".bench/models")
    ap.add_argument("--only", default="resnet18,convnext_tiny")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--runner", default="build/examples/executor_runner")
    ap.add_argument("--markdown", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    results = []
    text = [f"CPU: {cpu_description()}", ""]
    for name in [n for n in args.only.split(",") if n]:
        r = compare(name, args)
        results.append(r)
        text += [markdown(r), ""]
        print(markdown(r) + "\n", flush=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(text))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_description(), "results": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
