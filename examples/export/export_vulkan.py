#!/usr/bin/env python3
# Product tool: writes the Vulkan delegate fixtures in test/models/vulkan.
"""Exports programs lowered by upstream's VulkanPartitioner, bundled with
test cases whose expected outputs come from eager PyTorch (fp32).

Usage:
  python examples/export/export_vulkan.py [--out test/models/vulkan]
        [--only PATTERN[,PATTERN...]] [--large] [--large-out .bench/vulkan]
        [--describe] [--dump DIR]

Committed fixtures (small, random seeded weights; batch norm statistics from
a few training-mode passes, then eval()):
  conv_small.bpte     MobileNetV2-like: conv3x3/s2+BN+ReLU6, an inverted
                      residual block (pw expand, dw 3x3, pw project, + x),
                      global average pool, flatten, linear.  1x3x32x32
  resnet_block.bpte   conv+BN+ReLU, maxpool 3x3/s2/p1, a basic residual block
                      (two 3x3 convs), adaptive avg pool, linear.  1x3x32x32
  encoder_layer.bpte  nn.TransformerEncoderLayer(32, 4, 64, batch_first,
                      dropout=0) in eval mode.  1x8x32
  op_<name>.bpte      one operator each (the ops the models' delegates hold).
Each program must lower into exactly one VulkanBackend delegate holding the
case's expected operators (checked against the decoded VkGraph `chain`);
whatever stays outside it is listed as portable_ops in <out>/MANIFEST.

--large writes torchvision's mobilenet_v2 and resnet18 (random weights, BN
statistics from training passes, 1x3x224x224) to --large-out as
<name>.vulkan.pte and <name>.vulkan.bpte (not committed).

--describe prints each delegate's operator counts; --dump DIR writes
<DIR>/<name>.txt, a readable listing of every decoded VkGraph (header,
values, chain with typed arguments, constants, named data).

No Vulkan runtime is available to upstream's Python bindings, so there is no
--check: the expected outputs are eager PyTorch's.
"""

import argparse
import collections
import copy
import fnmatch
import os
import sys
import types

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils._pytree import tree_flatten

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


# ---------------------------------------------------------------- modules

class Fn(nn.Module):
    """Wraps a function of the inputs (no parameters)."""

    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, *args):
        return self.f(*args)


def fn(f):
    return Fn(f)


def conv_bn(cin, cout, k, stride=1, groups=1, act=None):
    layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
              nn.BatchNorm2d(cout)]
    if act is not None:
        layers.append(act())
    return nn.Sequential(*layers)


class InvertedResidual(nn.Module):
    """MobileNetV2's block with stride 1 and equal widths: 1x1 expand,
    depthwise 3x3, 1x1 project (no activation), plus the input."""

    def __init__(self, c, expand):
        super().__init__()
        h = c * expand
        self.body = nn.Sequential(conv_bn(c, h, 1, act=nn.ReLU6),
                                  conv_bn(h, h, 3, groups=h, act=nn.ReLU6),
                                  conv_bn(h, c, 1))

    def forward(self, x):
        return x + self.body(x)


class ConvSmall(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 16, 3, stride=2, act=nn.ReLU6)
        self.block = InvertedResidual(16, 4)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(self.block(self.stem(x)))
        return self.fc(torch.flatten(x, 1))


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a = conv_bn(c, c, 3, act=nn.ReLU)
        self.b = conv_bn(c, c, 3)

    def forward(self, x):
        return F.relu(self.b(self.a(x)) + x)


class ResnetBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 16, 3, act=nn.ReLU)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.block = BasicBlock(16)
        self.avg = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.avg(self.block(self.pool(self.stem(x))))
        return self.fc(torch.flatten(x, 1))


def encoder_layer():
    return nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                      batch_first=True, dropout=0.0)


def torchvision():
    sys.modules.setdefault("torchvision._meta_registrations",
                           types.ModuleType("torchvision._meta_registrations"))
    import torchvision as tv
    return tv


def train_batch_norm(module, shape, passes=3, batch=4, seed=0):
    """Running statistics from a few training-mode forward passes over
    random batches (so that batch norm is not the identity), then eval()."""
    gen = torch.Generator().manual_seed(seed)
    has_bn = any(isinstance(m, nn.modules.batchnorm._BatchNorm) for m in module.modules())
    if has_bn:
        module.train()
        with torch.no_grad():
            for _ in range(passes):
                module(torch.randn(batch, *shape[1:], generator=gen) * 1.5 + 0.25)
    return module.eval()


def r(*shape, lo=-2.0, hi=2.0):
    return torch.rand(*shape) * (hi - lo) + lo


# ---------------------------------------------------------------- cases

class Case:
    def __init__(self, name, make, inputs, expect_ops, rtol=1e-3, atol=1e-4, bn_shape=None,
                 delegates=1, portable=()):
        self.name = name
        self.make = make  # () -> nn.Module, built after torch.manual_seed(0)
        self.inputs = inputs  # () -> list of argument tuples, one per test case
        # Operator names (VkGraph OperatorCall.name) the delegate must hold.
        self.expect_ops = tuple(expect_ops)
        self.rtol = rtol
        self.atol = atol
        self.bn_shape = bn_shape
        # How many VulkanBackend delegates the program must have, and the
        # operators upstream leaves to portable kernels between them.
        self.delegates = delegates
        self.portable = tuple(portable)


def models():
    img = lambda: [(r(1, 3, 32, 32),), (r(1, 3, 32, 32),)]  # noqa: E731
    return [
        Case("conv_small", ConvSmall, img,
             ["et_vk.conv_with_clamp.default", "aten.convolution.default", "aten.add.Tensor",
              "aten.mean.dim", "aten.linear.default"], bn_shape=(1, 3, 32, 32)),
        Case("resnet_block", ResnetBlock, img,
             ["et_vk.conv_with_clamp.default", "aten.convolution.default", "aten.relu.default",
              "aten.max_pool2d_with_indices.default",
              "aten.add.Tensor", "aten.mean.dim", "aten.linear.default"],
             bn_shape=(1, 3, 32, 32)),
        Case("encoder_layer", encoder_layer, lambda: [(r(1, 8, 32),), (r(1, 8, 32),)],
             ["aten.linear.default", "aten.native_layer_norm.default", "aten.relu.default",
              "aten.bmm.default", "aten._softmax.default", "aten.where.self"],
             # The decomposed attention's q/k scaling (mul.Scalar) and its
             # all-masked-row check (any) are not Vulkan ops: three delegates.
             delegates=3, portable=["aten::any.out", "aten::mul.Scalar_out"]),
    ]


def op_cases():
    def una(name, f, shape, ops, **kw):
        return Case(f"op_{name}", lambda: fn(f), lambda: [(r(*shape),), (r(*shape),)], ops, **kw)

    def bina(name, f, sa, sb, ops):
        return Case(f"op_{name}", lambda: fn(f), lambda: [(r(*sa), r(*sb)), (r(*sa), r(*sb))],
                    ops)

    def div_inputs():
        return [(r(2, 3, 4, 5), r(2, 3, 4, 5, lo=0.5, hi=2.0)),
                (r(2, 3, 4, 5), -r(2, 3, 4, 5, lo=0.5, hi=2.0))]

    s4 = (1, 8, 6, 10)
    cases = [
        bina("add", lambda a, b: a + b, s4, s4, ["aten.add.Tensor"]),
        bina("add_broadcast", lambda a, b: a + b, (2, 8, 6, 10), (8, 1, 10), ["aten.add.Tensor"]),
        bina("sub", lambda a, b: a - b, s4, s4, ["aten.sub.Tensor"]),
        bina("mul", lambda a, b: a * b, s4, s4, ["aten.mul.Tensor"]),
        Case("op_div", lambda: fn(lambda a, b: a / b), div_inputs, ["aten.div.Tensor"]),
        una("add_alpha_scalar", lambda x: torch.add(x, 1.5, alpha=2.0), s4, ["aten.add.Tensor"]),
        una("relu", F.relu, s4, ["aten.relu.default"]),
        una("hardtanh", lambda x: F.hardtanh(x, -0.5, 1.25), s4, ["aten.hardtanh.default"]),
        una("relu6", F.relu6, s4, ["aten.hardtanh.default"]),
        una("clamp", lambda x: torch.clamp(x, -1.0, 0.5), s4, ["aten.clamp.default"]),
        una("sigmoid", torch.sigmoid, s4, ["aten.sigmoid.default"]),
        una("tanh", torch.tanh, s4, ["aten.tanh.default"]),
        una("gelu", F.gelu, s4, ["aten.gelu.default"]),
        una("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"), s4, ["aten.gelu.default"]),
        una("softmax", lambda x: torch.softmax(x, -1), (2, 4, 8, 8), ["aten._softmax.default"]),
        una("mean", lambda x: x.mean((-1, -2), keepdim=True), s4, ["aten.mean.dim"]),
        una("permute", lambda x: x.permute(0, 2, 3, 1), s4, ["aten.permute_copy.default"]),
        una("view", lambda x: x.reshape(1, 8, 60) * 2.0, s4, ["aten.view_copy.default"]),
        una("select", lambda x: x[:, 2] + x[:, 5], (2, 8, 6, 10), ["aten.select_copy.int"]),
        una("squeeze_unsqueeze", lambda x: x.squeeze(0).unsqueeze(1) * 2.0, (1, 8, 6, 10),
            ["aten.unsqueeze_copy.default"]),
        # a holds exact zeros (rounded), so that both branches are taken.
        Case("op_where_mask", lambda: fn(lambda a, b: torch.where(
            torch.logical_not(a == 0.0), torch.full_like(a, -3.0), b)),
             lambda: [(torch.round(r(2, 8, 10)), r(2, 8, 10)),
                      (torch.round(r(2, 8, 10)), r(2, 8, 10))],
             ["aten.eq.Scalar", "aten.logical_not.default", "aten.full_like.default",
              "aten.where.self"]),
        una("max_pool2d", lambda x: F.max_pool2d(x, 3, 2, 1), (1, 8, 16, 16),
            ["aten.max_pool2d_with_indices.default"]),
        Case("op_cat", lambda: fn(lambda a, b: torch.cat([a, b], 1)),
             lambda: [(r(1, 4, 6, 10), r(1, 12, 6, 10))], ["aten.cat.default"]),
        Case("op_layer_norm", layer_norm, lambda: [(r(1, 8, 32),), (r(1, 8, 32),)],
             ["aten.native_layer_norm.default"]),
        Case("op_linear", lambda: nn.Linear(32, 24), lambda: [(r(1, 8, 32),), (r(1, 8, 32),)],
             ["aten.linear.default"]),
        Case("op_linear_nobias", lambda: nn.Linear(32, 24, bias=False),
             lambda: [(r(4, 32),), (r(4, 32),)], ["aten.linear.default"]),
        bina("bmm", torch.bmm, (4, 8, 16), (4, 16, 8), ["aten.bmm.default"]),
        bina("matmul4d", torch.matmul, (1, 4, 8, 8), (1, 4, 8, 8), ["aten.bmm.default"]),
        Case("op_conv2d", lambda: nn.Conv2d(4, 8, 3, 1, 1), lambda: [(r(1, 4, 12, 12),)],
             ["aten.convolution.default"]),
        Case("op_conv2d_dw", lambda: nn.Conv2d(8, 8, 3, 2, 1, groups=8),
             lambda: [(r(1, 8, 12, 12),)], ["aten.convolution.default"]),
        Case("op_conv2d_pw", lambda: nn.Conv2d(8, 16, 1), lambda: [(r(1, 8, 12, 12),)],
             ["aten.convolution.default"]),
        Case("op_conv2d_relu6", lambda: nn.Sequential(nn.Conv2d(4, 8, 3, 2, 1), nn.ReLU6()),
             lambda: [(r(1, 4, 12, 12),)], ["et_vk.conv_with_clamp.default"]),
    ]
    return cases


def layer_norm():
    m = nn.LayerNorm(32)
    with torch.no_grad():
        m.weight.copy_(torch.rand(32) + 0.5)
        m.bias.copy_(torch.randn(32) * 0.2)
    return m


def large_models():
    def tv(name):
        return lambda: getattr(torchvision().models, name)(weights=None)

    inputs = lambda: [(torch.randn(1, 3, 224, 224),)]  # noqa: E731
    return [Case(name, tv(name), inputs, [], rtol=1e-3, atol=1e-3, bn_shape=(1, 3, 224, 224))
            for name in ("mobilenet_v2", "resnet18")]


# ---------------------------------------------------------------- lowering

def lower(module, example):
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower

    ep = torch.export.export(module, example, strict=False)
    return to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()]).to_executorch()


def bundle(et_prog, inputs_list, expected_list):
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)

    cases = [MethodTestCase(inputs=[a.clone().contiguous() for a in ins],
                            expected_outputs=[o.clone().contiguous() for o in outs])
             for ins, outs in zip(inputs_list, expected_list)]
    return serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(et_prog, [MethodTestSuite(method_name="forward", test_cases=cases)]))


def portable_ops(program):
    ops = set()
    for plan in program.execution_plan:
        for op in plan.operators:
            ops.add(f"{op.name}.{op.overload}" if op.overload else op.name)
    return sorted(ops)


# ---------------------------------------------------------------- decoding

def vk_graph(flatbuffer):
    """A VkGraph dataclass from the flatbuffer, like upstream's
    flatbuffer_to_vk_graph (flatc with upstream's schema.fbs, then
    _json_to_dataclass), except that the non-finite doubles flatc writes bare
    (e.g. a Double(-inf) argument) are read as JSON's Infinity/NaN."""
    import importlib.resources
    import json
    import re
    import tempfile
    import executorch.backends.vulkan.serialization as package
    from executorch.backends.vulkan.serialization.vulkan_graph_schema import VkGraph
    from executorch.exir._serialize._dataclass import _json_to_dataclass
    from executorch.exir._serialize._flatbuffer import _flatc_decompile

    with tempfile.TemporaryDirectory() as d:
        schema = os.path.join(d, "schema.fbs")
        with open(schema, "wb") as f:
            f.write(importlib.resources.files(package).joinpath("schema.fbs").read_bytes())
        with open(os.path.join(d, "schema.bin"), "wb") as f:
            f.write(flatbuffer)
        _flatc_decompile(d, schema, os.path.join(d, "schema.bin"), ["--raw-binary"])
        with open(os.path.join(d, "schema.json")) as f:
            text = f.read()
    names = {"inf": "Infinity", "+inf": "Infinity", "-inf": "-Infinity", "nan": "NaN",
             "+nan": "NaN", "-nan": "NaN"}
    text = re.sub(r"(?<=[\s:\[,])([+-]?(?:inf|nan))(?=[\s,\]}])",
                  lambda m: names[m.group(1)], text)
    return _json_to_dataclass(json.loads(text), VkGraph)


def decode(pte_bytes):
    """Decodes a serialized program's Vulkan delegates with upstream's own
    deserializers. Returns (program, named_data, blobs), where blobs holds a
    dict per VulkanBackend delegate: header, graph (a VkGraph dataclass),
    raw (the blob's raw-bytes section) and size (of the whole blob)."""
    from executorch.backends.vulkan.serialization.vulkan_graph_serialize import (
        VulkanDelegateHeader)
    from executorch.exir._serialize._program import deserialize_pte_binary

    pte = deserialize_pte_binary(pte_bytes)
    program = pte.program
    named = {}
    if pte.named_data is not None:
        for key, ref in pte.named_data.pte_data.items():
            named[key] = len(pte.named_data.buffers[ref.buffer_index])
    blobs = []
    for plan in program.execution_plan:
        for d in plan.delegates:
            if d.id != "VulkanBackend":
                continue
            data = program.backend_delegate_data[d.processed.index].data
            h = VulkanDelegateHeader.from_bytes(data[:VulkanDelegateHeader.EXPECTED_LENGTH])
            graph = vk_graph(
                data[h.flatbuffer_offset:h.flatbuffer_offset + h.flatbuffer_size])
            raw = data[h.bytes_offset:h.bytes_offset + h.bytes_size]
            blobs.append({"plan": plan.name, "header": h, "graph": graph, "raw": raw,
                          "size": len(data)})
    return program, named, blobs


def chain_counts(graph):
    return collections.Counter(call.name for call in graph.chain)


def value_str(graph, vid, depth=0):
    """One VkValue as text: its union type and contents."""
    v = graph.values[vid].value
    kind = type(v).__name__
    if kind == "VkTensor":
        parts = [f"{v.datatype.name if hasattr(v.datatype, 'name') else v.datatype}",
                 "[" + ",".join(str(d) for d in v.dims) + "]"]
        if v.constant_id >= 0:
            parts.append(f"const={v.constant_id}")
        parts.append(f"mem={v.mem_obj_id}")
        parts.append(f"{getattr(v.storage_type, 'name', v.storage_type)}/"
                     f"{getattr(v.memory_layout, 'name', v.memory_layout)}")
        staging = getattr(v.staging_datatype, "name", v.staging_datatype)
        if staging != getattr(v.datatype, "name", v.datatype):
            parts.append(f"staging={staging}")
        return f"%{vid}:Tensor(" + " ".join(parts) + ")"
    if kind == "Null":
        return f"%{vid}:Null"
    if kind == "Int":
        return f"%{vid}:Int({v.int_val})"
    if kind == "Double":
        return f"%{vid}:Double({v.double_val!r})"
    if kind == "Bool":
        return f"%{vid}:Bool({v.bool_val})"
    if kind in ("IntList", "DoubleList", "BoolList"):
        return f"%{vid}:{kind}{list(v.items)}"
    if kind == "String":
        return f"%{vid}:String({v.string_val!r})"
    if kind == "SymInt":
        return f"%{vid}:SymInt({v.value})"
    if kind == "ValueList":
        if depth:
            return f"%{vid}:ValueList{list(v.items)}"
        return f"%{vid}:ValueList[" + ", ".join(value_str(graph, i, 1) for i in v.items) + "]"
    return f"%{vid}:{kind}"


def arg_kinds(graph, call):
    kinds = []
    for vid in call.args:
        v = graph.values[vid].value
        kind = type(v).__name__
        if kind == "ValueList":
            inner = sorted({type(graph.values[i].value).__name__ for i in v.items})
            kind = "ValueList<" + "|".join(inner) + ">"
        kinds.append(kind)
    return kinds


def dump_text(name, program, named, blobs):
    lines = [f"# {name}",
             f"delegates: {[d.id for p in program.execution_plan for d in p.delegates]}",
             f"portable ops: {portable_ops(program) or '-'}",
             f"named data: {len(named)} entries, {sum(named.values())} bytes"]
    for k, b in enumerate(blobs):
        g, h = b["graph"], b["header"]
        lines += ["", f"## delegate {k} (plan {b['plan']}): blob {b['size']} bytes, "
                  f"flatbuffer @{h.flatbuffer_offset}+{h.flatbuffer_size}, "
                  f"raw bytes @{h.bytes_offset}+{h.bytes_size}",
                  f"version={g.version!r} storage_type_override="
                  f"{getattr(g.storage_type_override, 'name', g.storage_type_override)} "
                  f"memory_layout_override="
                  f"{getattr(g.memory_layout_override, 'name', g.memory_layout_override)}",
                  f"inputs: " + ", ".join(value_str(g, i) for i in g.input_ids),
                  f"outputs: " + ", ".join(value_str(g, i) for i in g.output_ids),
                  "chain counts: " + ", ".join(f"{n} x{c}" for n, c in
                                              sorted(chain_counts(g).items())),
                  "", "### chain"]
        for call in g.chain:
            lines.append(f"[{call.node_id}] {call.name}(" +
                         ", ".join(value_str(g, i, 1) for i in call.args) + ")")
        lines += ["", "### constants"]
        for i, c in enumerate(g.constants):
            where = (f"named_key={c.named_key} ({named.get(c.named_key, '?')} bytes in named data)"
                     if c.named_key else f"raw offset {c.offset}")
            lines.append(f"[{i}] offset={c.offset} length={c.length} {where}")
        lines += ["", "### values"]
        for i in range(len(g.values)):
            lines.append(value_str(g, i, 1))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- export

def export_case(case, out, write_pte=False, describe=False, dump=None):
    torch.manual_seed(0)
    module = case.make()
    if case.bn_shape:
        module = train_batch_norm(module, case.bn_shape)
    module = module.eval()
    inputs = case.inputs()
    with torch.no_grad():
        expected = [tree_flatten(module(*copy.deepcopy(a)))[0] for a in inputs]
    prog = lower(module, tuple(inputs[0]))
    program, named, blobs = decode(prog.buffer)
    counts = collections.Counter()
    for b in blobs:
        counts.update(chain_counts(b["graph"]))
    missing = [op for op in case.expect_ops if op not in counts]
    if len(blobs) != case.delegates or missing or portable_ops(program) != sorted(case.portable):
        raise RuntimeError(f"{case.name}: {len(blobs)} Vulkan delegates; ops missing from "
                           f"the delegates: {missing}; delegate ops: {dict(counts)}; "
                           f"portable ops: {portable_ops(program)}")
    if describe:
        print(f"  {case.name}: " + ", ".join(f"{n} x{c}" for n, c in sorted(counts.items())),
              flush=True)
    if dump:
        os.makedirs(dump, exist_ok=True)
        with open(os.path.join(dump, f"{case.name}.txt"), "w") as f:
            f.write(dump_text(case.name, program, named, blobs))
    written = []
    path = os.path.join(out, f"{case.name}.bpte")
    if write_pte:
        path = os.path.join(out, f"{case.name}.vulkan.bpte")
        with open(os.path.join(out, f"{case.name}.vulkan.pte"), "wb") as f:
            f.write(prog.buffer)
        written.append(f.name)
    with open(path, "wb") as f:
        f.write(bundle(prog, inputs, expected))
    written.append(path)
    return len(blobs), portable_ops(program), counts, written


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "test", "models", "vulkan"))
    p.add_argument("--only", default="*", help="fnmatch patterns, comma-separated")
    p.add_argument("--large", action="store_true",
                   help="write torchvision's mobilenet_v2 and resnet18 to --large-out")
    p.add_argument("--large-out", default=os.path.join(ROOT, ".bench", "vulkan"))
    p.add_argument("--describe", action="store_true",
                   help="print the operator counts of each delegate")
    p.add_argument("--dump", default=None,
                   help="write a readable listing of each decoded VkGraph into this folder")
    args = p.parse_args()

    if args.large:
        cases, out = large_models(), args.large_out
    else:
        cases, out = models() + op_cases(), args.out
    os.makedirs(out, exist_ok=True)
    manifest = []
    for case in cases:
        if not any(fnmatch.fnmatch(case.name, pat) for pat in args.only.split(",")):
            continue
        n, rest, counts, written = export_case(case, out, write_pte=args.large,
                                               describe=args.describe, dump=args.dump)
        ops = ",".join(f"{k}:{v}" for k, v in sorted(counts.items()))
        manifest.append(f"{case.name} fp32 delegates={n} rtol={case.rtol} atol={case.atol} "
                        f"portable_ops={','.join(rest) or '-'} vulkan_ops={ops}")
        print(manifest[-1], flush=True)
    # Merge into the MANIFEST (one line per case, sorted by name).
    path = os.path.join(out, "MANIFEST")
    lines = {}
    if os.path.exists(path):
        for line in open(path):
            if line.strip():
                lines[line.split()[0]] = line.rstrip("\n")
    for line in manifest:
        lines[line.split()[0]] = line
    with open(path, "w") as f:
        f.write("\n".join(lines[k] for k in sorted(lines)) + "\n")


if __name__ == "__main__":
    main()
