#!/usr/bin/env python3
"""Exports the benchmark models that bench/compare_upstream.py runs: real
architectures (torchvision CNNs, a small ViT, a transformer encoder, a
Llama-style block), each written to --out (default .bench/models) as

  <name>.fp32.pte     torch.export -> to_edge_transform_and_lower with
                      upstream's XnnpackPartitioner -> to_executorch
  <name>.int8.pte     static int8: XNNPACKQuantizer with
                      get_symmetric_quantization_config(is_per_channel=True),
                      prepare_pt2e, calibration on a few random batches,
                      convert_pt2e, then the same lowering
  <name>.portable.pte the fp32 model without the partitioner: every
                      operator on the portable kernels (--dtypes portable;
                      not written by default)
  <name>.fp32.onnx    torch.onnx.export (TorchScript exporter), for ONNX Runtime
  <name>.input.npy    the benchmark input: random normal, fixed seed
  <name>.<dtype>.info.json  what the partitioner left outside XNNPACK, export time

Weights are random (each architecture's own initialisation) but BatchNorm
running statistics come from forward passes in training mode on random
data, so that activations keep a realistic scale instead of decaying to
subnormals through dozens of layers.

Usage:
  python bench/bench_models.py [--out .bench/models] [--only resnet18,vit_small]
        [--dtypes fp32,int8] [--no-onnx] [--force] [--list]

A model or dtype that fails to export is skipped with its reason; the
others go on. Files already present are kept unless --force.
"""

import argparse
import copy
import json
import math
import os
import sys
import time
import traceback
import types
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SEED = 20240607
CALIB_BATCHES = 4
BN_BATCHES = 4
BN_BATCH_SIZE = 4


def torchvision():
    # torchvision's meta registrations need a matching torch build; they are
    # not needed here.
    sys.modules.setdefault("torchvision._meta_registrations",
                           types.ModuleType("torchvision._meta_registrations"))
    import torchvision as tv
    return tv


# ---------------------------------------------------------------- models

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotary_tables(seq, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    ang = torch.outer(torch.arange(seq, dtype=torch.float32), inv)  # [seq, head_dim/2]
    ang = torch.cat([ang, ang], dim=-1)  # [seq, head_dim]
    return ang.cos(), ang.sin()


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], dim=-1)


class LlamaBlock(nn.Module):
    """One pre-norm decoder block: RMSNorm, causal multi-head attention with
    rotary position embeddings, RMSNorm, SwiGLU MLP; no KV cache (prefill of
    the whole sequence)."""

    def __init__(self, dim=512, heads=8, seq=64, hidden=1408):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.attn_norm = RMSNorm(dim)
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.mlp_norm = RMSNorm(dim)
        self.w_gate = nn.Linear(dim, hidden, bias=False)
        self.w_up = nn.Linear(dim, hidden, bias=False)
        self.w_down = nn.Linear(hidden, dim, bias=False)
        cos, sin = rotary_tables(seq, self.head_dim)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.register_buffer("mask", torch.full((seq, seq), float("-inf")).triu(1),
                             persistent=False)

    def forward(self, x):
        b, s, d = x.shape
        h = self.attn_norm(x)
        q = self.wq(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        v = self.wv(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        q = q * self.cos + rotate_half(q) * self.sin
        k = k * self.cos + rotate_half(k) * self.sin
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim)) + self.mask
        att = att.softmax(dim=-1)
        o = (att @ v).transpose(1, 2).reshape(b, s, d)
        x = x + self.wo(o)
        h = self.mlp_norm(x)
        return x + self.w_down(F.silu(self.w_gate(h)) * self.w_up(h))


def transformer_encoder():
    layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                       dropout=0.0, batch_first=True)
    return nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)


class LstmTagger(nn.Module):
    """A sequence tagger: one LSTM layer over per-token features, a linear
    layer to the tag scores, log-softmax. Exported, the LSTM unrolls into
    hundreds of small operators (per time step: a matrix product, gate
    activations, elementwise products), so per-operator overhead decides
    its time."""

    def __init__(self, features=64, hidden=128, tags=17):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, batch_first=True)
        self.out = nn.Linear(hidden, tags)

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.out(h).log_softmax(-1)


def small_transformer():
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=256,
                                       dropout=0.0, batch_first=True)
    return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def vit_small():
    tv = torchvision()
    m = tv.models.VisionTransformer(image_size=224, patch_size=16, num_layers=4,
                                    num_heads=6, hidden_dim=384, mlp_dim=1536)
    # torchvision zero-initialises the classifier (for fine-tuning): the
    # output would be all zeros, which compares equal whatever the runtime.
    nn.init.normal_(m.heads.head.weight, std=0.02)
    nn.init.normal_(m.heads.head.bias, std=0.02)
    return m


def tv_model(name, **kw):
    def make():
        tv = torchvision()
        return getattr(tv.models, name)(weights=None, **kw)
    return make


IMAGE = (1, 3, 224, 224)

# name -> (constructor, input shape)
MODELS = {
    "resnet18": (tv_model("resnet18"), IMAGE),
    "resnet50": (tv_model("resnet50"), IMAGE),
    # The subnormal check: BatchNorm statistics left at their initial
    # mean 0 / var 1 (not calibrated), so activations shrink layer after
    # layer (see SUBNORMAL_MODELS).
    "mobilenet_v2_rawbn": (tv_model("mobilenet_v2"), IMAGE),
    "resnet50_rawbn": (tv_model("resnet50"), IMAGE),
    "mobilenet_v2": (tv_model("mobilenet_v2"), IMAGE),
    "mobilenet_v3_large": (tv_model("mobilenet_v3_large"), IMAGE),
    "efficientnet_b0": (tv_model("efficientnet_b0"), IMAGE),
    "shufflenet_v2_x1_0": (tv_model("shufflenet_v2_x1_0"), IMAGE),
    "squeezenet1_1": (tv_model("squeezenet1_1"), IMAGE),
    "regnet_y_400mf": (tv_model("regnet_y_400mf"), IMAGE),
    "googlenet": (tv_model("googlenet", aux_logits=False, init_weights=True), IMAGE),
    "densenet121": (tv_model("densenet121"), IMAGE),
    "convnext_tiny": (tv_model("convnext_tiny"), IMAGE),
    "swin_t": (tv_model("swin_t"), IMAGE),
    "vit_small": (vit_small, IMAGE),
    "transformer_encoder": (transformer_encoder, (1, 128, 256)),
    "llama_block": (lambda: LlamaBlock(dim=512, heads=8, seq=64, hidden=1408), (1, 64, 512)),
    # Small models, where the time per operator call is what counts.
    "lstm_tagger": (LstmTagger, (1, 32, 64)),
    "small_transformer": (small_transformer, (1, 32, 64)),
}


# ---------------------------------------------------------------- helpers

# Models exported without BatchNorm calibration, for compare_upstream.py's
# subnormal check (activations that underflow must not slow a runtime down).
SUBNORMAL_MODELS = ("mobilenet_v2_rawbn", "resnet50_rawbn")


def calibrate_batchnorm(model, shape, gen):
    """Running mean/var from training-mode passes on random data (a
    cumulative average over the passes, not the momentum-weighted one, so
    that the initial mean 0 / var 1 leaves no trace)."""
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return 0
    saved = [m.momentum for m in bns]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(BN_BATCHES):
            model(torch.randn((BN_BATCH_SIZE,) + tuple(shape[1:]), generator=gen))
    for m, mom in zip(bns, saved):
        m.momentum = mom
    model.eval()
    return len(bns)


def quantize(model, example, calib):
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    q = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    gm = torch.export.export(model, example, strict=False).module()
    gm = prepare_pt2e(gm, q)
    with torch.no_grad():
        for x in calib:
            gm(x)
    return convert_pt2e(gm)


def undelegated_ops(edge):
    """call_function targets outside any delegate, and the delegate count.
    Ops whose inputs are all constants (e.g. a scalar constant's dtype copy)
    are counted apart, as "<op> (constant)": they cost next to nothing."""
    ep = edge.exported_program()
    user_inputs = set(ep.graph_signature.user_inputs)
    on_data = set()  # nodes that depend on a user input
    ops, delegates = {}, 0
    for node in ep.graph_module.graph.nodes:
        if node.op == "placeholder":
            if node.name in user_inputs:
                on_data.add(node)
            continue
        if any(a in on_data for a in node.all_input_nodes):
            on_data.add(node)
        if node.op != "call_function":
            continue
        name = getattr(node.target, "__name__", str(node.target))
        if "executorch_call_delegate" in name:
            delegates += 1
            continue
        if name in ("getitem",):
            continue
        if node not in on_data:
            name += " (constant)"
        ops[name] = ops.get(name, 0) + 1
    return ops, delegates


def lower(model, example, partition=True):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    ep = torch.export.export(model, example, strict=False)
    partitioners = [XnnpackPartitioner()] if partition else []
    edge = to_edge_transform_and_lower(ep, partitioner=partitioners)
    ops, delegates = undelegated_ops(edge)
    return edge.to_executorch().buffer, ops, delegates


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def export_model(name, out, dtypes, onnx, force):
    ctor, shape = MODELS[name]
    gen = torch.Generator().manual_seed(SEED)
    torch.manual_seed(SEED)
    model = ctor()
    n_bn = 0 if name in SUBNORMAL_MODELS else calibrate_batchnorm(model, shape, gen)
    model.eval()
    x = torch.randn(shape, generator=gen)
    example = (x,)
    np.save(os.path.join(out, f"{name}.input.npy"), x.numpy().astype(np.float32))
    with torch.no_grad():
        ref = model(x)
    print(f"[{name}] input {list(shape)}, {n_bn} BatchNorm layers calibrated, "
          f"eager output {list(ref.shape)} |max| {ref.abs().max().item():.3g}", flush=True)
    if name in SUBNORMAL_MODELS:
        acts = []
        hooks = [m.register_forward_hook(lambda _m, _i, o: acts.append(o.abs().max().item()))
                 for m in model.modules() if isinstance(m, nn.ReLU6) or isinstance(m, nn.ReLU)]
        with torch.no_grad():
            model(x)
        for h in hooks:
            h.remove()
        tiny = sum(1 for a in acts if a < 1.1754944e-38)
        print(f"[{name}] activation maxima from {acts[0]:.3g} to {min(acts):.3g}; "
              f"{tiny} of {len(acts)} activation outputs entirely below FLT_MIN", flush=True)
    results = {}
    for dtype in dtypes:
        path = os.path.join(out, f"{name}.{dtype}.pte")
        if os.path.exists(path) and not force:
            print(f"[{name}] {dtype}: {path} exists, kept", flush=True)
            results[dtype] = "kept"
            continue
        t0 = time.perf_counter()
        try:
            m = copy.deepcopy(model)
            if dtype == "int8":
                calib = [torch.randn(shape, generator=gen) for _ in range(CALIB_BATCHES)]
                m = quantize(m, example, calib)
            buf, ops, delegates = lower(m, example, partition=dtype != "portable")
        except Exception as e:  # noqa: BLE001 -- skip the model, keep going
            msg = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
            print(f"[{name}] {dtype}: SKIPPED, export failed: {msg}", flush=True)
            if os.environ.get("BENCH_TRACEBACK"):
                traceback.print_exc()
            results[dtype] = "failed: " + msg
            continue
        secs = time.perf_counter() - t0
        write(path, buf)
        info = {"model": name, "dtype": dtype, "input_shape": list(shape),
                "export_s": round(secs, 1), "delegates": delegates,
                "undelegated_ops": ops, "bytes": len(buf)}
        with open(os.path.join(out, f"{name}.{dtype}.info.json"), "w") as f:
            json.dump(info, f, indent=1)
        on_data = {k: v for k, v in ops.items() if not k.endswith("(constant)")}
        note = ("fully delegated" if not on_data else
                "NOT fully delegated, outside XNNPACK: " +
                ", ".join(f"{k} x{v}" for k, v in sorted(on_data.items())))
        if len(on_data) != len(ops):
            note += "; on constants only: " + ", ".join(
                f"{k[: -len(' (constant)')]} x{v}" for k, v in sorted(ops.items())
                if k not in on_data)
        print(f"[{name}] {dtype}: {path} ({len(buf) / 1e6:.1f} MB, {secs:.0f} s), "
              f"{delegates} delegate(s), {note}", flush=True)
        results[dtype] = "ok"
    if onnx and "fp32" in dtypes:
        path = os.path.join(out, f"{name}.fp32.onnx")
        if os.path.exists(path) and not force:
            print(f"[{name}] onnx: {path} exists, kept", flush=True)
            results["onnx"] = "kept"
        else:
            try:
                t0 = time.perf_counter()
                tmp = path + ".tmp"
                torch.onnx.export(model, example, tmp, dynamo=False, opset_version=17,
                                  input_names=["input"], output_names=["output"],
                                  do_constant_folding=True)
                os.replace(tmp, path)
                print(f"[{name}] onnx: {path} ({time.perf_counter() - t0:.0f} s)", flush=True)
                results["onnx"] = "ok"
            except Exception as e:  # noqa: BLE001
                msg = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
                print(f"[{name}] onnx: SKIPPED, export failed: {msg}", flush=True)
                results["onnx"] = "failed: " + msg
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, ".bench", "models"))
    p.add_argument("--only", default="", help="comma-separated model names (default: all)")
    p.add_argument("--dtypes", default="fp32,int8")
    p.add_argument("--no-onnx", action="store_true", help="skip the .onnx files")
    p.add_argument("--force", action="store_true", help="re-export files already present")
    p.add_argument("--list", action="store_true", help="print the model names and exit")
    p.add_argument("--verbose", action="store_true",
                   help="keep Python warnings; BENCH_TRACEBACK=1 prints export tracebacks")
    args = p.parse_args()
    if not args.verbose:
        warnings.filterwarnings("ignore")
    if args.list:
        print("\n".join(MODELS))
        return
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        raise SystemExit(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(MODELS)}")
    dtypes = [d for d in args.dtypes.split(",") if d]
    bad = [d for d in dtypes if d not in ("fp32", "int8", "portable")]
    if bad:
        raise SystemExit(f"unknown dtype(s): {', '.join(bad)} (fp32, int8, portable)")
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    summary = {}
    for name in names:
        t0 = time.perf_counter()
        try:
            summary[name] = export_model(name, args.out, dtypes, not args.no_onnx, args.force)
        except Exception as e:  # noqa: BLE001 -- e.g. the constructor itself failed
            msg = f"{type(e).__name__}: {e}"
            print(f"[{name}] SKIPPED: {msg}", flush=True)
            summary[name] = {"all": "failed: " + msg}
        print(f"[{name}] done in {time.perf_counter() - t0:.0f} s", flush=True)
    print("\nSummary:")
    for name, res in summary.items():
        print(f"  {name:22} " + ", ".join(f"{k}: {v}" for k, v in res.items()))


if __name__ == "__main__":
    main()
