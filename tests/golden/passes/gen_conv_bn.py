"""Writes the conv-bn folding fixtures (tests/cpp/passes, tests/js): small models whose BatchNorm follows a
convolution, exported with the real exporter and torch's own outputs as the reference.
Run: PYTHONPATH=python <reference python> tests/golden/passes/gen_conv_bn.py"""
import os

import torch
import torch.nn.functional as F

import fxwasm

HERE = os.path.dirname(os.path.abspath(__file__))


class ConvBn(torch.nn.Module):
    """Two conv → bn pairs (one conv without bias), a relu between them."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.bn1 = torch.nn.BatchNorm2d(4)
        self.conv2 = torch.nn.Conv2d(4, 5, 3, stride=2, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(5, eps=1e-3)

    def forward(self, x):
        return self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x)))))


class ConvBnFunctional(torch.nn.Module):
    """The same fold in functional form: F.conv2d followed by F.batch_norm on get_attr tensors."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 3, 3, 3) * 0.3)
        self.b = torch.nn.Parameter(torch.randn(4) * 0.1)
        self.register_buffer("mean", torch.randn(4) * 0.2)
        self.register_buffer("var", torch.rand(4) + 0.5)
        self.gamma = torch.nn.Parameter(torch.rand(4) + 0.5)
        self.beta = torch.nn.Parameter(torch.randn(4) * 0.1)

    def forward(self, x):
        y = F.conv2d(x, self.w, self.b, padding=1)
        return F.batch_norm(y, self.mean, self.var, self.gamma, self.beta, False, 0.1, 1e-5)


def randomise_bn(model):
    # Fresh BatchNorms are identities (mean 0, var 1, weight 1, bias 0): give them real statistics so the
    # fold has something to fold.
    g = torch.Generator().manual_seed(1)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            n = m.num_features
            m.running_mean.copy_(torch.randn(n, generator=g) * 0.2)
            m.running_var.copy_(torch.rand(n, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(n, generator=g) + 0.5)
            m.bias.data.copy_(torch.randn(n, generator=g) * 0.1)


def main():
    torch.manual_seed(0)
    x = torch.randn(1, 3, 8, 8)
    with torch.no_grad():
        model = ConvBn()
        randomise_bn(model)
        fxwasm.save(model.eval(), os.path.join(HERE, "conv_bn.fxw"), example_inputs=(x,))
        fxwasm.save(ConvBnFunctional().eval(), os.path.join(HERE, "conv_bn_functional.fxw"), example_inputs=(x,))


if __name__ == "__main__":
    main()
