"""quantized_decomposed Q/DQ cases (issue #4): the ops a quantized program
keeps outside a delegate. Modules call torch.ops.quantized_decomposed.*
directly; the expected values are the eager reference implementations."""

import torch

from op_suite.registry import fn_case

import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers the ops)

try:  # out-variants for to_executorch
    import executorch.kernels.quantized  # noqa: F401
except Exception:  # pragma: no cover - older executorch
    pass

Q = torch.ops.quantized_decomposed
torch.manual_seed(0)


def _r(*shape):
    return torch.randn(*shape) * 3


fn_case("quantize_per_tensor__u8", ["quantized_decomposed::quantize_per_tensor.out"],
        lambda x: Q.quantize_per_tensor(x, 0.05, 128, 0, 255, torch.uint8),
        [(_r(3, 5),) for _ in range(2)])
fn_case("quantize_per_tensor__i8_ties", ["quantized_decomposed::quantize_per_tensor.out"],
        lambda x: Q.quantize_per_tensor(x, 0.5, -3, -128, 127, torch.int8),
        [(torch.tensor([0.25, 0.75, -0.25, -1.25, 100.0, -100.0, 0.0, 1.0]),)])
fn_case("dequantize_per_tensor__i8", ["quantized_decomposed::dequantize_per_tensor.out"],
        lambda q: Q.dequantize_per_tensor(q, 0.1, -5, -128, 127, torch.int8),
        [(torch.randint(-128, 128, (4, 3), dtype=torch.int8),) for _ in range(2)])
fn_case("qdq_per_tensor__tensor_args",
        ["quantized_decomposed::quantize_per_tensor.Tensor_out",
         "quantized_decomposed::dequantize_per_tensor.Tensor_out"],
        lambda x, s, z: Q.dequantize_per_tensor.tensor(
            Q.quantize_per_tensor.tensor(x, s, z, 0, 255, torch.uint8), s, z, 0, 255,
            torch.uint8),
        [(_r(2, 6), torch.tensor([0.04], dtype=torch.float64), torch.tensor([100]))
         for _ in range(2)])
fn_case("quantize_per_channel__i8", ["quantized_decomposed::quantize_per_channel.out"],
        lambda x, s, z: Q.quantize_per_channel(x, s, z, 1, -128, 127, torch.int8),
        [(_r(2, 3, 4), torch.tensor([0.02, 0.1, 0.05], dtype=torch.float64),
          torch.tensor([0, -3, 7])) for _ in range(2)])
fn_case("dequantize_per_channel__u8", ["quantized_decomposed::dequantize_per_channel.out"],
        lambda q, s, z: Q.dequantize_per_channel(q, s, z, 0, 0, 255, torch.uint8),
        [(torch.randint(0, 256, (3, 4), dtype=torch.uint8),
          torch.tensor([0.02, 0.1, 0.05], dtype=torch.float64), torch.tensor([128, 0, 7]))
         for _ in range(2)])
fn_case("choose_qparams__dynamic",
        ["quantized_decomposed::choose_qparams.Tensor_out",
         "quantized_decomposed::quantize_per_tensor.Tensor_out",
         "quantized_decomposed::dequantize_per_tensor.Tensor_out"],
        lambda x: (lambda sz: Q.dequantize_per_tensor.tensor(
            Q.quantize_per_tensor.tensor(x, sz[0], sz[1], -128, 127, torch.int8),
            sz[0], sz[1], -128, 127, torch.int8))(
                Q.choose_qparams.tensor(x, -128, 127, 1e-7, torch.int8)),
        [(_r(4, 5),) for _ in range(3)])
fn_case("choose_qparams__u8_positive", ["quantized_decomposed::choose_qparams.Tensor_out"],
        lambda x: tuple(Q.choose_qparams.tensor(x, 0, 255, 1e-5, torch.uint8)),
        [(torch.rand(3, 3) + 0.5,) for _ in range(2)])
