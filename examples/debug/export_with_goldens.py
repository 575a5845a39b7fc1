#!/usr/bin/env python3
# Product tool: exports a model with PyTorch's value of every instruction (the goldens).
"""Export a model for layer-by-layer debugging, with PyTorch's value of every
instruction the runtime logs (the "goldens").

Usage (from the repository root):

  python examples/debug/export_with_goldens.py MODEL FLOW OUT_DIR
         [--plant_fault N] [--list_ops] [--seed S]

  MODEL   resnet50            torchvision ResNet-50, random weights, BatchNorm
                              statistics from a few training-mode passes on
                              random data, then eval; input 1x3x224x224
          transformer_block   one pre-norm encoder block (multi-head
                              self-attention + GELU MLP + LayerNorm,
                              batch_first); input 1x16x64
  FLOW    portable            every operator a kernel call
          xnnpack             lowered with XnnpackPartitioner
  OUT_DIR receives:
    model.pte           to_executorch(ExecutorchBackendConfig(emit_stacktrace=True))
    etrecord.bin        the ETRecord (exported and edge programs, debug handle
                        map, delegate map, the input as representative input):
                        what upstream's Inspector needs
    input0.npy          the input (for executor_runner --inputs)
    golden/index.json   {"format": "ember-intermediates-1", "entries": [...]}
    golden/*.npy        one file per logged value, keyed like the runner's
                        --intermediates_dir: "<method>/c<chain>/i<instr>/o<k>"
    export_info.json    model, flow, instruction count, and the planted fault

  --plant_fault N  exports a variant whose Nth ATen operator node (0-based, in
                   the order --list_ops prints) computes the wrong function
                   (relu <-> sigmoid, add <-> sub, mul -> add), while the
                   goldens are still PyTorch's values of the correct model;
                   export_info.json names the instruction that should be the
                   first divergence.
  --list_ops       prints the ATen operator nodes (with N) and exits.

Keys follow the runner's (examples/executor_runner/runner_intermediates.h):
a kernel's result is one logged value, o0, or, for a kernel with several
outs (native_layer_norm, max_pool2d_with_indices, split_with_sizes_copy), a
tensor list whose element j is o0.j; a delegate call's argument k is ok.

How the goldens are keyed: when the emitter turns the graph into
instructions it stores, in each kernel or delegate node's "debug_handle" meta
of the emitted graph, the index of the instruction it became (the original
edge handles go to the ETRecord's debug handle map). So instruction i of a
chain is the emitted node whose debug handle is i. The emitted graph is
runnable in PyTorch (memory planning's alloc nodes make empty tensors, the
out-variant ATen ops fill them, a delegate call runs its original subgraph),
so the script runs it in torch.fx node by node and writes each instruction's
values: a kernel call's outputs in order; a delegate call's arguments in order
(inputs, then outputs), as the runtime logs them. Only tensors are written;
other values keep their index k.

Tested with torch 2.13.0 and executorch 1.5.1.
"""

import argparse
import json
import os
import re
import sys
import types

import numpy as np
import torch
import torch.nn as nn

GOLDEN_FORMAT = "ember-intermediates-1"

# --------------------------------------------------------------------------
# Models


def _calibrated(model, batch_shape):
    """BatchNorm statistics that are not the identity: a few training-mode
    passes over random data of `batch_shape`, then eval mode."""
    model.train()
    with torch.no_grad():
        for _ in range(3):
            model(torch.randn(*batch_shape))
    return model.eval()


def _resnet50(seed):
    # torchvision's meta registrations need ops this torch build may not have;
    # the model itself does not use them.
    sys.modules.setdefault(
        "torchvision._meta_registrations",
        types.ModuleType("torchvision._meta_registrations"),
    )
    import torchvision

    torch.manual_seed(seed)
    model = _calibrated(torchvision.models.resnet50(weights=None), (4, 3, 224, 224))
    return model, (torch.randn(1, 3, 224, 224),)


class TransformerBlock(nn.Module):
    """Pre-norm encoder block: x + attn(ln1(x)), then + mlp(ln2(x))."""

    def __init__(self, dim=64, heads=4, hidden=128):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):  # x: [batch, seq, dim]
        b, s, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q = q.reshape(b, s, h, d // h).transpose(1, 2)
        k = k.reshape(b, s, h, d // h).transpose(1, 2)
        v = v.reshape(b, s, h, d // h).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / (d // h) ** 0.5)
        attn = torch.softmax(scores, dim=-1)
        ctx = torch.matmul(attn, v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(ctx)
        x = x + self.fc2(self.act(self.fc1(self.ln2(x))))
        return x


def _transformer_block(seed):
    torch.manual_seed(seed)
    model = TransformerBlock().eval()
    return model, (torch.randn(1, 16, 64),)


class SmallCnn(nn.Module):
    """A few layers of everything ResNet-50 has, small enough for a
    committed fixture (test/models/debug)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = torch.relu(self.conv2(y) + y)
        return self.fc(y.mean(dim=(2, 3)))


def _small_cnn(seed):
    torch.manual_seed(seed)
    model = _calibrated(SmallCnn(), (4, 3, 8, 8))
    return model, (torch.randn(1, 3, 8, 8),)


MODELS = {"resnet50": _resnet50, "transformer_block": _transformer_block,
          "small_cnn": _small_cnn}

# --------------------------------------------------------------------------
# Planted faults: one row per operator we know how to make wrong with the
# same arguments.

_aten = torch.ops.aten
FAULT_SWAPS = {
    _aten.relu.default: _aten.sigmoid.default,
    _aten.sigmoid.default: _aten.relu.default,
    _aten.add.Tensor: _aten.sub.Tensor,
    _aten.sub.Tensor: _aten.add.Tensor,
    _aten.mul.Tensor: _aten.add.Tensor,
}
# The planted node carries this line (and the correct op's name) at the end
# of its stack trace: unlike custom meta keys, the stack trace survives the
# edge passes and lowering, and a line that is not a frame does not change
# the frames the program records.
FAULT_MARK = "[ember planted fault; correct op: "


def aten_operator_nodes(ep):
    return [
        n
        for n in ep.graph.nodes
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)
    ]


def plant_fault(ep, index):
    nodes = aten_operator_nodes(ep)
    if not 0 <= index < len(nodes):
        raise SystemExit(f"--plant_fault {index}: the program has {len(nodes)} operator nodes")
    node = nodes[index]
    if node.target not in FAULT_SWAPS:
        swappable = [f"{i}:{n.target}" for i, n in enumerate(nodes) if n.target in FAULT_SWAPS]
        raise SystemExit(
            f"--plant_fault {index}: node {node.name} ({node.target}) has no wrong twin; "
            f"swappable nodes: {' '.join(swappable[:20])}{' ...' if len(swappable) > 20 else ''}"
        )
    wrong = FAULT_SWAPS[node.target]
    info = {"index": index, "node": node.name, "correct": str(node.target), "planted": str(wrong),
            "stack_trace": _last_frame(node.meta.get("stack_trace"))}
    node.meta["stack_trace"] = (node.meta.get("stack_trace") or "") + f"\n{FAULT_MARK}{node.target}]"
    node.target = wrong
    ep.graph_module.recompile()
    return info


def _last_frame(stack_trace):
    if not stack_trace:
        return None
    lines = [l for l in stack_trace.strip().splitlines() if l.strip()]
    return " | ".join(l.strip() for l in lines[-2:])


def _planted_fault_op(node):
    if not _is_operator(node):
        return None
    trace = node.meta.get("stack_trace") or ""
    at = trace.rfind(FAULT_MARK)
    if at < 0:
        return None
    return trace[at + len(FAULT_MARK):].split("]")[0]


def _run_correct_op(name, args, kwargs):
    """Computes the correct op of a planted node with the node's arguments;
    for an out variant (emitted graph), writes the result into `out`."""
    op = _resolve_aten(name)
    accepted = {a.name for a in op._schema.arguments}
    out = kwargs.get("out")
    value = op(*args, **{k: v for k, v in kwargs.items() if k in accepted})
    if isinstance(out, torch.Tensor):
        out.copy_(value)
        return out
    return value


def _resolve_aten(name):
    # "aten.relu.default" -> torch.ops.aten.relu.default
    ns, op, overload = name.split(".")
    return getattr(getattr(getattr(torch.ops, ns), op), overload)


# --------------------------------------------------------------------------
# Export


def _patch_emitter_stacktrace():
    """executorch 1.5.1's emitter appends a stack trace only for kernel calls,
    so emit_stacktrace=True fails ("Each instruction should have corresponding
    stacktrace") on any program where a delegate call precedes a kernel call.
    Pad the chain's stack traces with an empty frame list after each delegate
    call (the delegate node has no source line of its own)."""
    from executorch.exir.emit import _emitter
    from executorch.exir.schema import FrameList

    if getattr(_emitter._Emitter, "_ember_padded", False):
        return
    original = _emitter._Emitter._emit_delegate

    def emit_delegate(self, lowered_module, args, kwargs):
        value = original(self, lowered_module, args, kwargs)
        if self.emitter_state.emit_stacktrace:
            traces = self.chain.stacktrace or []
            while len(traces) < len(self.chain.instructions):
                traces.append(FrameList(items=[]))
            self.chain.stacktrace = traces
        return value

    _emitter._Emitter._emit_delegate = emit_delegate
    _emitter._Emitter._ember_padded = True


_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _short_path(path):
    """A source path as the program will carry it: relative to the
    repository, or from site-packages on, so that a program does not name
    the machine it was exported on."""
    if path.startswith(_REPO_ROOT + os.sep):
        return os.path.relpath(path, _REPO_ROOT)
    marker = os.sep + "site-packages" + os.sep
    if marker in path:
        return "site-packages" + os.sep + path.split(marker, 1)[1]
    if os.path.isabs(path):
        return os.path.basename(path)
    return path


def _shorten_trace(trace):
    return re.sub(r'File "([^"]+)"', lambda m: f'File "{_short_path(m.group(1))}"', trace)


def shorten_stack_traces(graph_module):
    """Rewrites the file names in every node's stack trace (what
    emit_stacktrace writes into the program) with _short_path."""
    for module in graph_module.modules():
        graph = getattr(module, "graph", None)
        if graph is None:
            continue
        for node in graph.nodes:
            trace = node.meta.get("stack_trace")
            if trace:
                node.meta["stack_trace"] = _shorten_trace(trace)


def export_program(model, inputs, flow, fault_index=None):
    from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower

    ep = torch.export.export(model, inputs, strict=False)
    # Functional ATen (in-place relu_ becomes relu) so a planted fault swaps a
    # pure function; to_edge decomposes the rest as usual.
    ep = ep.run_decompositions({})
    fault = plant_fault(ep, fault_index) if fault_index is not None else None
    if fault is not None and fault.get("stack_trace"):
        fault["stack_trace"] = _shorten_trace(fault["stack_trace"])
    partitioner = []
    if flow == "xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner

        partitioner = [XnnpackPartitioner()]
    edge = to_edge_transform_and_lower(ep, partitioner=partitioner, generate_etrecord=True)
    _patch_emitter_stacktrace()
    for method in edge.methods:
        shorten_stack_traces(edge.exported_program(method).graph_module)
    et = edge.to_executorch(ExecutorchBackendConfig(emit_stacktrace=True))
    etrecord = et.get_etrecord()
    etrecord.update_representative_inputs(list(inputs))
    return et, etrecord, fault


# --------------------------------------------------------------------------
# PyTorch values of every edge node


def _flat_program_args(ep, user_inputs):
    from torch.export.graph_signature import InputKind

    user = iter(user_inputs)
    args = []
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            args.append(next(user))
        elif spec.target in ep.state_dict:
            args.append(ep.state_dict[spec.target])
        else:
            args.append(ep.constants[spec.target])
    return args


def _is_operator(node):
    return node.op == "call_function" and (
        isinstance(node.target, torch._ops.OpOverload)
        or type(node.target).__name__ == "EdgeOpOverload")


def _is_delegate_call(node):
    return node.op == "call_function" and "executorch_call_delegate" in str(node.target)


class _Capture(torch.fx.Interpreter):
    """Runs an exported program's graph in PyTorch and keeps each
    call_function node's value by name. Works on the emitted graph (memory
    planning's alloc nodes make empty tensors, out-variant ops fill them,
    memory.view is a view). A planted fault is computed with its correct op;
    a delegate call runs its original subgraph (so a fault inside it too)."""

    def __init__(self, ep):
        super().__init__(ep.graph_module)
        self.ep = ep
        self.values = {}  # node name -> value
        self.delegate_args = {}  # node name -> list of input values
        self.fault_nodes = []

    def run_node(self, n):
        correct = _planted_fault_op(n)
        if correct is not None:
            self.fault_nodes.append(n.name)
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            value = _run_correct_op(correct, args, kwargs)
        elif _is_delegate_call(n):
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            lowered = args[0]
            inner = _Capture(lowered.original_module)
            outs = inner.run_program(list(args[1:]))
            self.fault_nodes += [f"{n.name}/{f}" for f in inner.fault_nodes]
            value = tuple(outs)
            self.delegate_args[n.name] = list(args[1:])
        else:
            value = super().run_node(n)
        if n.op == "call_function":
            logged = value
            if logged is None and "out" in n.kwargs:
                # an out variant that returns nothing (split_with_sizes_copy.out):
                # the runtime logs its out list
                _, kwargs = self.fetch_args_kwargs_from_env(n)
                if isinstance(kwargs["out"], (list, tuple)):
                    logged = list(kwargs["out"])
            self.values[n.name] = logged
        return value

    def run_program(self, user_inputs):
        with torch.no_grad():
            out = self.run(*_flat_program_args(self.ep, user_inputs))
        # Drop mutated-buffer outputs: keep the user outputs.
        n_user = len(self.ep.graph_signature.user_outputs)
        out = list(out) if isinstance(out, (tuple, list)) else [out]
        return out[len(out) - n_user:]


# --------------------------------------------------------------------------
# Instructions -> goldens


def _op_short_name(name, overload):
    base = name.split("::")[-1]
    return f"{base}.{overload}" if overload else base


def _schema_name(node):
    schema = node.target._schema
    return schema.name, schema.overload_name


def _as_list(value):
    if isinstance(value, (tuple, list)):
        return list(value)
    return [value]


def _safe(s):
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in s)


def collect_goldens(et, user_inputs):
    """Returns (entries, values, report): entries are dicts for index.json,
    values[i] the tensor of entries[i]."""
    from executorch.exir.schema import DelegateCall, KernelCall

    program = et.executorch_program
    entries, values = [], []
    report = {"instructions": 0, "with_golden": 0, "missing": [], "fault_keys": []}
    for plan in program.execution_plan:
        method = plan.name
        emitted = et.exported_program(method)
        capture = _Capture(emitted)
        capture.run_program(user_inputs)
        # The emitter set each kernel/delegate node's debug handle to its
        # instruction's index (chain 0: the method's own graph).
        by_handle = {}
        for n in emitted.graph.nodes:
            if n.meta.get("debug_handle") is not None and (_is_delegate_call(n) or _is_operator(n)):
                by_handle.setdefault(n.meta["debug_handle"], n)
        for chain_i, chain in enumerate(plan.chains):
            for instr_i, instr in enumerate(chain.instructions):
                args = instr.instr_args
                if not isinstance(args, (KernelCall, DelegateCall)):
                    continue
                report["instructions"] += 1
                key_base = f"{method}/c{chain_i}/i{instr_i}"
                node = by_handle.get(instr_i) if chain_i == 0 else None
                if isinstance(args, KernelCall):
                    op = plan.operators[args.op_index]
                    opname = _op_short_name(op.name, op.overload)
                    kind = "kernel"
                    name = node.name if node is not None else None
                    if node is None or _op_short_name(*_schema_name(node)) != opname:
                        report["missing"].append(f"{key_base} ({opname})")
                        continue
                    # The runtime logs each return value of a kernel as o<k>:
                    # a node returning several tensors (a tuple: layer norm,
                    # batch norm, max pool with indices) gives o0, o1, ...; one
                    # returning a tensor list (split) gives one list whose
                    # element j is "o0.j".
                    value = capture.values[name]
                    vals = list(value) if isinstance(value, tuple) else [value]
                    faulty = name in capture.fault_nodes
                else:
                    delegate = plan.delegates[args.delegate_index]
                    opname = delegate.id
                    kind = "delegate"
                    name = node.name if node is not None else None
                    if name not in capture.delegate_args:
                        report["missing"].append(f"{key_base} ({opname})")
                        continue
                    vals = capture.delegate_args[name] + _as_list(capture.values[name])
                    if len(vals) != len(args.args):
                        print(f"warning: {key_base}: the delegate call has {len(args.args)} "
                              f"arguments, PyTorch gives {len(vals)} values", file=sys.stderr)
                    faulty = any(f.startswith(name + "/") for f in capture.fault_nodes)
                report["with_golden"] += 1
                if faulty:
                    report["fault_keys"].append(key_base)
                for k, v in enumerate(vals):
                    items = [(str(k), None, v)]
                    if isinstance(v, (list, tuple)):
                        items = [(f"{k}.{j}", j, t) for j, t in enumerate(v)]
                    for out, element, t in items:
                        if not isinstance(t, torch.Tensor):
                            continue
                        fname = f"{method}__c{chain_i}_i{instr_i:04d}__{_safe(opname)}__o{out}.npy"
                        entry = {
                            "key": f"{key_base}/o{out}", "file": fname, "method": method,
                            "chain": chain_i, "instruction": instr_i, "output": k, "kind": kind,
                            "operator": opname, "node": name,
                            "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                        }
                        if element is not None:
                            entry["element"] = element
                        entries.append(entry)
                        values.append(t.detach().contiguous())
    return entries, values, report


def write_goldens(golden_dir, program_name, entries, values):
    os.makedirs(golden_dir, exist_ok=True)
    for old in os.listdir(golden_dir):
        if old.endswith(".npy") or old == "index.json":
            os.remove(os.path.join(golden_dir, old))
    for e, v in zip(entries, values):
        np.save(os.path.join(golden_dir, e["file"]), v.numpy())
    with open(os.path.join(golden_dir, "index.json"), "w") as f:
        json.dump({"format": GOLDEN_FORMAT, "program": program_name, "entries": entries}, f,
                  indent=1)


def export_with_goldens(model_name, flow, out_dir, plant_fault_index=None, seed=0, log=print):
    model, inputs = MODELS[model_name](seed)
    et, etrecord, fault = export_program(model, inputs, flow, plant_fault_index)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "model.pte"), "wb") as f:
        et.write_to_file(f)
    etrecord.save(os.path.join(out_dir, "etrecord.bin"))
    input_paths = []
    for i, x in enumerate(inputs):
        p = os.path.join(out_dir, f"input{i}.npy")
        np.save(p, x.numpy())
        input_paths.append(p)
    entries, values, report = collect_goldens(et, inputs)
    golden_dir = os.path.join(out_dir, "golden")
    write_goldens(golden_dir, "model.pte", entries, values)
    info = {"model": model_name, "flow": flow, "seed": seed,
            "instructions_with_calls": report["instructions"],
            "instructions_with_golden": report["with_golden"],
            "missing": report["missing"], "golden_files": len(entries)}
    if fault is not None:
        fault["instruction_keys"] = report["fault_keys"]
        info["planted_fault"] = fault
    with open(os.path.join(out_dir, "export_info.json"), "w") as f:
        json.dump(info, f, indent=1)
    log(f"{model_name} ({flow}): {report['instructions']} kernel/delegate calls, "
        f"{report['with_golden']} with goldens, {len(entries)} golden tensors -> {golden_dir}")
    if report["missing"]:
        log(f"  no golden for: {', '.join(report['missing'][:10])}"
            f"{' ...' if len(report['missing']) > 10 else ''}")
    if fault is not None:
        log(f"  planted fault: node {fault['node']} {fault['correct']} -> {fault['planted']}; "
            f"expected first divergence: {', '.join(fault['instruction_keys']) or '(not found)'}")
    return {"pte": os.path.join(out_dir, "model.pte"), "etrecord": os.path.join(out_dir, "etrecord.bin"),
            "inputs": input_paths, "golden_dir": golden_dir, "info": info}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", choices=sorted(MODELS))
    p.add_argument("flow", choices=["portable", "xnnpack"])
    p.add_argument("out_dir", nargs="?")
    p.add_argument("--plant_fault", type=int, default=None, metavar="N")
    p.add_argument("--list_ops", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if a.list_ops:
        model, inputs = MODELS[a.model](a.seed)
        ep = torch.export.export(model, inputs, strict=False).run_decompositions({})
        for i, n in enumerate(aten_operator_nodes(ep)):
            mark = "  (swappable)" if n.target in FAULT_SWAPS else ""
            print(f"{i:4d} {n.name:32s} {n.target}{mark}")
        return 0
    if not a.out_dir:
        p.error("OUT_DIR is required")
    export_with_goldens(a.model, a.flow, a.out_dir, a.plant_fault, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
