#!/usr/bin/env python3
# Product tool: writes the llama::gated_delta_rule fixtures in test/models/llm_ops.
"""Exports fixtures for upstream's gated-DeltaNet operator (Qwen3.5's linear
attention), llama::gated_delta_rule and its deprecated name
llama::channelwise_gated_delta_rule.

Usage:
  python examples/export/export_gated_delta_rule.py [--out test/models/llm_ops] [--check]
  python examples/export/export_gated_delta_rule.py --cpp   # unit-test data

Each fixture is a small module calling the operator, exported with
torch.export (sequence length dynamic, so one program serves every test
case) -> to_edge -> to_executorch into <out>/<name>.bpte with upstream's
BundledProgram serializer. Expected outputs come from the recurrence below,
evaluated in float64 and rounded to float32 once (upstream's kernel runs a
chunked float32 prefill for T > 1, so its own outputs are not the exact
recurrence); the export checks that upstream's eager kernel agrees with
them at the fixture's tolerance.

The recurrence, per batch b and state head g (state S is [K, V]); query
head h reads state head h // (H / Hkv):
    S = S * decay_t[:, None]              (channelwise [K]; scalar: one gate)
    delta = beta_t * (v_t - k_t @ S)
    S = S + outer(k_t, delta)
    out_t[h] = q_t[h] @ S
final_state is S after the last token; initial_state is not written.

The fixtures' lines in <out>/MANIFEST are replaced or appended; other
lines stay. --check also runs every file in upstream's Python runtime at
the same tolerance. --cpp prints the small case that
test/kernels/llm/op_gated_delta_rule_test.cpp embeds.
"""

import argparse
import copy
import os
import sys

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))

# Registers llama::* (loads upstream's libcustom_ops_aot_lib).
from executorch.extension.llm.custom_ops import custom_ops  # noqa: F401,E402

sys.path.insert(0, HERE)
from export_op_suite import check_case, program_ops  # noqa: E402

L = torch.ops.llama


def reference(query, key, value, decay, beta, initial_state):
    """(out, final_state) of the recurrence above, in float64."""
    q, k, v, d, bt = (t.double() for t in (query, key, value, decay, beta))
    state = initial_state.double().clone()
    batch, heads, seq, _ = q.shape
    group = heads // k.size(1)
    out = torch.zeros(batch, heads, seq, v.size(3), dtype=torch.float64)
    for t in range(seq):
        gate = d[:, :, t] if d.dim() == 4 else d[:, :, t, None]  # [B, Hkv, K or 1]
        state = state * gate[..., None]
        k_t = k[:, :, t]                                          # [B, Hkv, K]
        predicted = torch.einsum("bgk,bgkv->bgv", k_t, state)
        delta = bt[:, :, t, None] * (v[:, :, t] - predicted)      # [B, Hkv, V]
        state = state + k_t[..., None] * delta[:, :, None, :]
        per_head = state.repeat_interleave(group, dim=1)          # [B, H, K, V]
        out[:, :, t] = torch.einsum("bhk,bhkv->bhv", q[:, :, t], per_head)
    return out.float(), state.float()


def make_inputs(gen, batch, heads, kv_heads, seq, k_dim, v_dim, scalar_decay, state=True):
    """Inputs shaped as upstream's model feeds them: unit-norm keys and
    queries scaled by 1/sqrt(K), decay in (0, 1), beta in (0, 1)."""
    r = lambda *s: torch.randn(*s, generator=gen)  # noqa: E731
    q = nn.functional.normalize(r(batch, heads, seq, k_dim), dim=-1) * k_dim ** -0.5
    k = nn.functional.normalize(r(batch, kv_heads, seq, k_dim), dim=-1)
    v = r(batch, kv_heads, seq, v_dim)
    gate_shape = (batch, kv_heads, seq) if scalar_decay else (batch, kv_heads, seq, k_dim)
    decay = torch.rand(*gate_shape, generator=gen) * 0.6 + 0.4
    beta = torch.sigmoid(r(batch, kv_heads, seq))
    args = [q, k, v, decay, beta]
    if state:
        args.append(r(batch, kv_heads, k_dim, v_dim))
    return args


class GatedDelta(nn.Module):
    def forward(self, q, k, v, decay, beta, initial_state):
        return L.gated_delta_rule(q, k, v, decay, beta, initial_state)


class ChannelwiseAlias(nn.Module):
    def forward(self, q, k, v, decay, beta, initial_state):
        return L.channelwise_gated_delta_rule(q, k, v, decay, beta, initial_state)


class RecurrentGatedDelta(nn.Module):
    """The state lives in a mutable buffer, as in a decoder layer: each call
    continues from the state the previous call left. Its initial value is
    serialized (InitializedMutableBufferPass), so the first call reads it."""

    def __init__(self, initial_state):
        super().__init__()
        self.register_buffer("state", initial_state.clone())

    def forward(self, q, k, v, decay, beta):
        out, final_state = L.gated_delta_rule(q, k, v, decay, beta, self.state)
        self.state.copy_(final_state)
        return out, final_state


FIXTURES = []


def fixture(name, rtol, atol, doc, init_buffers=()):
    def wrap(build):
        FIXTURES.append((name, rtol, atol, doc, build, init_buffers))
        return build

    return wrap


def functional_cases(seed, dims, seqs, scalar_decay, tiny_decay_at=None):
    gen = torch.Generator().manual_seed(seed)
    cases = []
    for i, seq in enumerate(seqs):
        args = make_inputs(gen, *dims[:3], seq, *dims[3:], scalar_decay)
        if i == tiny_decay_at:
            args[3] = torch.full_like(args[3], 1e-12)  # upstream's overflow guard
        expected = reference(*args)
        cases.append((args, list(expected)))
    return cases


@fixture("gated_delta_rule_gqa_channelwise", 1e-5, 1e-5,
         "channelwise decay [B, Hkv, T, K], 4 query heads over 2 state heads, "
         "K=7, V=5, T = 3, 1, 37, then 2 with decay 1e-12")
def gated_delta_rule_gqa_channelwise():
    return GatedDelta(), functional_cases(1, (1, 4, 2, 7, 5), (3, 1, 37, 2), False,
                                          tiny_decay_at=3)


@fixture("gated_delta_rule_scalar_batch2", 1e-5, 1e-5,
         "scalar decay [B, Hkv, T], batch 2, 3 heads = state heads, K=6, V=9, "
         "T = 4, 1, 33")
def gated_delta_rule_scalar_batch2():
    return GatedDelta(), functional_cases(2, (2, 3, 3, 6, 9), (4, 1, 33), True)


@fixture("gated_delta_rule_state_buffer", 1e-5, 1e-5,
         "state carried in a mutable buffer with a serialized initial value: T=5, "
         "then three T=1 steps, then T=2, run in order (2 query heads, 1 state "
         "head, K=4, V=3, channelwise)", init_buffers=("state",))
def gated_delta_rule_state_buffer():
    gen = torch.Generator().manual_seed(3)
    initial = torch.randn(1, 1, 4, 3, generator=gen)
    state, cases = initial, []
    for seq in (5, 1, 1, 1, 2):
        args = make_inputs(gen, 1, 2, 1, seq, 4, 3, False, state=False)
        out, state = reference(*args, state)
        cases.append((args, [out, state]))
    return RecurrentGatedDelta(initial), cases


@fixture("channelwise_gated_delta_rule_alias", 1e-5, 1e-5,
         "the deprecated name llama::channelwise_gated_delta_rule, scalar decay, "
         "T = 3, 1")
def channelwise_gated_delta_rule_alias():
    return ChannelwiseAlias(), functional_cases(4, (1, 2, 2, 3, 5), (3, 1), True)


def dynamic_seq(example_args):
    """The five per-token inputs vary in length (dim 2); the state, when
    it is an input (the sixth), does not."""
    seq = torch.export.Dim("seq", min=1, max=64)
    return tuple([{2: seq}] * 5 + [{}] * (len(example_args) - 5))


def export_fixture(name, build, rtol, atol, init_buffers, out):
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer,
    )
    from executorch.exir import EdgeCompileConfig, ExecutorchBackendConfig, to_edge
    from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass

    module, cases = build()
    example = tuple(cases[0][0])  # T > 1: a size-1 example would specialize
    with torch.no_grad():  # upstream's eager kernel agrees with the reference
        eager = copy.deepcopy(module)
        for args, expected in cases:
            got = eager(*copy.deepcopy(args))
            for g_, e in zip(got, expected):
                torch.testing.assert_close(g_, e, rtol=rtol, atol=atol)
    ep = torch.export.export(copy.deepcopy(module), example,
                             dynamic_shapes=dynamic_seq(example), strict=False)
    config = ExecutorchBackendConfig(passes=[InitializedMutableBufferPass(list(init_buffers))]
                                     if init_buffers else [])
    et_prog = to_edge(ep, compile_config=EdgeCompileConfig(_check_ir_validity=False)
                      ).to_executorch(config)
    suite = MethodTestSuite(method_name="forward", test_cases=[
        MethodTestCase(inputs=[a.contiguous() for a in args],
                       expected_outputs=[e.contiguous() for e in expected])
        for args, expected in cases])
    data = serialize_from_bundled_program_to_flatbuffer(BundledProgram(et_prog, [suite]))
    with open(os.path.join(out, f"{name}.bpte"), "wb") as f:
        f.write(data)
    return program_ops(et_prog), len(data)


def merge_manifest(out, lines):
    path = os.path.join(out, "MANIFEST")
    kept = open(path).read().splitlines() if os.path.exists(path) else []
    names = {line.split()[0] for line in lines}
    kept = [k for k in kept if k.startswith("#") or not k.strip() or k.split()[0] not in names]
    with open(path, "w") as f:
        f.write("\n".join(kept + lines) + "\n")


# --- the unit test's case ---------------------------------------------------

def cpp_float(x):
    """The shortest literal that reads back as the same float32."""
    x = torch.tensor(float(x), dtype=torch.float32)
    for digits in range(1, 10):
        text = f"{x.item():.{digits}g}"
        if torch.tensor(float(text), dtype=torch.float32) == x:
            break
    return text + ("f" if any(c in text for c in ".en") else ".0f")


def cpp_floats(name, t):
    """A C++ initializer, wrapped at 100 columns."""
    lines, line = [], f"const std::vector<float> {name} = {{"
    for x in t.flatten():
        item = cpp_float(x) + ", "
        if len(line) + len(item.rstrip()) > 99:
            lines.append(line.rstrip())
            line = "    "
        line += item
    lines.append(line.rstrip().rstrip(",") + "};")
    return "\n".join(lines)


def print_cpp_case():
    """B=1, H=2 over Hkv=1, T=3, K=3, V=2: both decay layouts, same rest."""
    gen = torch.Generator().manual_seed(5)
    q, k, v, decay, beta, state = make_inputs(gen, 1, 2, 1, 3, 3, 2, False)
    scalar = torch.rand(1, 1, 3, generator=gen) * 0.6 + 0.4
    round2 = lambda t: (t * 100).round() / 100  # noqa: E731 (short literals)
    q, k, v, decay, beta, state, scalar = map(round2, (q, k, v, decay, beta, state, scalar))
    for name, t in (("kQuery", q), ("kKey", k), ("kValue", v), ("kDecay", decay),
                    ("kScalarDecay", scalar), ("kBeta", beta), ("kState", state)):
        print(cpp_floats(name, t))
    for suffix, d in (("", decay), ("Scalar", scalar)):
        out, final = reference(q, k, v, d, beta, state)
        print(cpp_floats(f"kOut{suffix}", out))
        print(cpp_floats(f"kFinal{suffix}", final))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "test", "models",
                                                      "llm_ops"))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cpp", action="store_true")
    args = parser.parse_args()
    if args.cpp:
        print_cpp_case()
        return 0
    os.makedirs(args.out, exist_ok=True)
    lines, failures = [], []
    for name, rtol, atol, doc, build, init_buffers in FIXTURES:
        try:
            ops, size = export_fixture(name, build, rtol, atol, init_buffers, args.out)
        except Exception as e:  # report and go on
            failures.append(f"{name}: export failed: {e}")
            continue
        print(f"{name}: {size} bytes, ops {', '.join(ops)}")
        lines.append(f"{name} rtol={rtol} atol={atol} ops={','.join(ops)}")
        if args.check:
            try:
                check_case(os.path.join(args.out, f"{name}.bpte"), rtol, atol)
            except Exception as e:
                failures.append(f"{name}: upstream runtime check failed: {e}")
    merge_manifest(args.out, lines)
    for msg in failures:
        print("FAILED", msg, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
