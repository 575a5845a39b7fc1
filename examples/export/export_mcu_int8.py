# Product tool: writes the microcontroller int8 fixture in test/models/mcu.
"""The microcontroller fixture: a statically quantized int8 CNN exported
without a delegate, so that it runs through the portable quantized operators
(quantize/dequantize per tensor and per channel around fp32 convolutions, the
Q/DQ form upstream's quantizer leaves when nothing lowers it).

    python examples/export/export_mcu_int8.py test/models/mcu

Written with torch 2.13.0 and executorch 1.5.1: upstream's XNNPACKQuantizer
(symmetric, per-channel weights), calibrated on random inputs after a few
training-mode passes set the BatchNorm statistics, then
to_edge().to_executorch() and upstream's BundledProgram. The expected
outputs are upstream's portable runtime's on the same program (PyTorch's
converted module rounds differently), and the tolerance is one step of the
output's quantization. Writes int8_cnn.bpte and int8_cnn.json (the
operators, the tolerance and how far PyTorch's own reference is).
"""
import copy
import json
import os
import sys

import torch
import torch.nn as nn


class SmallCnn(nn.Module):
    """A keyword-spotting-sized CNN: two conv/BN/ReLU blocks, global pool,
    a linear classifier."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


def main(out):
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer)
    from executorch.exir import to_edge
    import executorch.kernels.quantized  # noqa: F401 (the out variants of the Q/DQ ops)
    from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    torch.manual_seed(7)
    model = SmallCnn()
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(8, 3, 32, 32))
    model.eval()
    example = (torch.randn(1, 3, 32, 32),)
    quantizer = XNNPACKQuantizer().set_global(
        get_symmetric_quantization_config(is_per_channel=True))
    gm = torch.export.export(model, example, strict=False).module()
    gm = prepare_pt2e(gm, quantizer)
    with torch.no_grad():
        for _ in range(16):
            gm(torch.randn(1, 3, 32, 32))
    gm = convert_pt2e(gm)
    ep = torch.export.export(gm, example, strict=False)
    program = to_edge(ep).to_executorch()
    plan = program.executorch_program.execution_plan[0]
    ops = sorted({f"{o.name}.{o.overload}" if o.overload else o.name for o in plan.operators})
    assert not plan.delegates, "no delegate expected"

    runtime = _load_for_executorch_from_buffer(program.buffer)
    inputs = [(torch.randn(1, 3, 32, 32),) for _ in range(3)]
    expected = [[o.clone() for o in runtime.forward(ins)] for ins in inputs]
    with torch.no_grad():
        reference = [gm(*ins) for ins in inputs]
    pytorch_diff = max(float((r - e[0]).abs().max()) for r, e in zip(reference, expected))
    # One step of the output's quantization: the last dequantize's scale.
    scales = [n.args[1] for n in gm.graph.nodes
              if n.op == "call_function" and "dequantize_per_tensor" in str(n.target)]
    step = float(scales[-1])
    cases = [MethodTestCase(inputs=list(ins), expected_outputs=outs)
             for ins, outs in zip(inputs, expected)]
    data = serialize_from_bundled_program_to_flatbuffer(
        BundledProgram(program, [MethodTestSuite(method_name="forward", test_cases=cases)]))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "int8_cnn.bpte"), "wb") as f:
        f.write(data)
    facts = {"ops": ops, "atol": step, "rtol": 0.0, "bytes": len(data),
             "pytorch_reference_max_abs_diff": pytorch_diff,
             "torch": torch.__version__}
    with open(os.path.join(out, "int8_cnn.json"), "w") as f:
        json.dump(facts, f, indent=1)
    print(json.dumps(facts, indent=1))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "test/models/mcu")
