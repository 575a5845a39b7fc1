"""Model-level blocks, not delegated: small enough to commit, run on the
portable kernels end to end (issue #4's model fixtures)."""

import torch
import torch.nn as nn

from op_suite.registry import op_case

torch.manual_seed(0)


class InvertedResidual(nn.Module):
    """MobileNetV2 block: 1x1 expand, 3x3 depthwise, 1x1 project, residual."""

    def __init__(self, c=8, t=4):
        super().__init__()
        h = c * t
        self.body = nn.Sequential(
            nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.ReLU6(),
            nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h), nn.ReLU6(),
            nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.body(x)


class BasicBlock(nn.Module):
    """ResNet basic block with a strided projection shortcut."""

    def __init__(self, cin=8, cout=16):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=2, bias=False),
                                  nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        return torch.relu(self.b2(self.c2(y)) + self.down(x))


class EncoderLayer(nn.Module):
    """Transformer encoder layer: attention with softmax, layer norm, GELU."""

    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.n1 = nn.LayerNorm(d)
        self.n2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.n1(x)).reshape(b, s, 3, self.heads, d // self.heads) \
            .permute(2, 0, 3, 1, 4)
        att = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(y)
        return x + self.ff(self.n2(x))


class GRUCellLike(nn.Module):
    """A GRU cell written out with linear layers, sigmoid and tanh."""

    def __init__(self, i=6, h=8):
        super().__init__()
        self.x2h = nn.Linear(i, 3 * h)
        self.h2h = nn.Linear(h, 3 * h)

    def forward(self, x, h):
        xr, xz, xn = self.x2h(x).chunk(3, dim=-1)
        hr, hz, hn = self.h2h(h).chunk(3, dim=-1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        return (1 - z) * n + z * h


def _randomize_bn(m):
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 1.5)
            mod.weight.data.uniform_(0.5, 1.5)
            mod.bias.data.uniform_(-0.5, 0.5)
    return m


op_case("block__mobilenet_v2_inverted_residual",
        ["aten::convolution.out", "aten::_native_batch_norm_legit_no_training.out",
         "aten::hardtanh.out", "aten::add.out"],
        lambda: _randomize_bn(InvertedResidual()),
        [(torch.randn(1, 8, 10, 10),) for _ in range(2)], rtol=1e-4, atol=1e-5)
op_case("block__resnet_basic",
        ["aten::convolution.out", "aten::_native_batch_norm_legit_no_training.out",
         "aten::relu.out", "aten::add.out"],
        lambda: _randomize_bn(BasicBlock()),
        [(torch.randn(1, 8, 12, 12),) for _ in range(2)], rtol=1e-4, atol=1e-5)
op_case("block__transformer_encoder_layer",
        ["aten::native_layer_norm.out", "aten::_softmax.out", "aten::gelu.out",
         "aten::addmm.out", "aten::bmm.out"],
        lambda: EncoderLayer(),
        [(torch.randn(2, 5, 16),) for _ in range(2)], rtol=1e-4, atol=1e-5)
op_case("block__gru_cell",
        ["aten::addmm.out", "aten::sigmoid.out", "aten::tanh.out", "aten::split_copy"],
        lambda: GRUCellLike(),
        [(torch.randn(3, 6), torch.randn(3, 8)) for _ in range(3)], rtol=1e-4, atol=1e-5)
