"""The machine-measured thresholds of kusari's CPU paths, in one table: each constant, what it decides,
the measurement behind it and the machine it was measured on.

The modules that use a threshold import it from here; ``docs/performance.md`` shows :data:`TABLE`
(a test keeps the two equal). A threshold measured on one machine may be wrong on another: remeasure
before changing one, and record the new measurement and machine here.
"""
from __future__ import annotations

from typing import NamedTuple

XEON = "AVX-512 Xeon"
EPYC = "AVX2 EPYC"
MACHINES = {
    XEON: "2-core Intel Xeon with AVX-512 (bench/RESULTS.md's core section; OpenBLAS SkylakeX kernels)",
    EPYC: "2-core AMD EPYC with AVX2 only (bench/RESULTS.md's RL section; OpenBLAS Haswell kernels)",
}


class Threshold(NamedTuple):
    """One row of :data:`TABLE`."""
    name: str
    value: object
    used_by: str
    meaning: str
    reason: str
    machine: str


TABLE: dict[str, Threshold] = {}


def _measured(name, value, used_by, meaning, reason, machine):
    TABLE[name] = Threshold(name, value, used_by, meaning, reason, machine)
    return value


GEMM_MIN_PRODUCT = _measured(
    "GEMM_MIN_PRODUCT", 2 ** 21, "kusari.onednn.gemm, linear",
    "linear-layer products of fewer multiply-adds run on NumPy, even under use_onednn='always'",
    "below it oneDNN's call costs more than it saves, and the size test is all a batch-1 network's "
    "products pay", XEON)
GEMM_MIN_SIDE = _measured(
    "GEMM_MIN_SIDE", 16, "kusari.onednn.gemm",
    "a product whose result has a side shorter than this (a batch of one, ten classes) runs on NumPy",
    "oneDNN's gains (0.5-0.8x OpenBLAS's time) were all on products with many rows and columns", XEON)
GEMM_MIN_OPERAND = _measured(
    "GEMM_MIN_OPERAND", 2 ** 19, "kusari.onednn.gemm",
    "a product none of whose operands has this many elements (2 MB) runs on NumPy",
    "SAC's 256-wide products: bit-equal and equally fast on the Xeon; on the EPYC oneDNN made the update "
    "5 % slower (in-process A/B, 60 alternating blocks of 10 updates)", EPYC)
CONV_PLAIN_MIN_PIXELS = _measured(
    "CONV_PLAIN_MIN_PIXELS", 100, "kusari.onednn.convolution",
    "a stride-1 unpadded 1x1 convolution of a row-major x on an image of this many pixels or more is "
    "oneDNN's GEMM on the plain layout (no reorders); smaller images use its blocked kernels",
    "ResNet-50's 1x1 convolutions, forward and both backwards: the plain GEMM takes 0.47-0.99x the "
    "blocked kernels' time with their reorders on 14x14 and larger; on 7x7 the blocked kernels win (0.8x)",
    XEON)
CHANNELS_LAST_MIN_CHANNELS = _measured(
    "CHANNELS_LAST_MIN_CHANNELS", 3, "kusari.onednn.layout",
    "a 2-D convolution writes its result (and its gradient to x) channels-last from this many channels on",
    "channels-last took ResNet-20's step from 532 to 402 ms (207 of 271 reorders gone). Below 16 "
    "channels (was the threshold until December 2026): oneDNN limited to AVX2 pools a row-major "
    "6-channel array with its reference kernel, so LeNet-5's step took 1.2-1.35x PyTorch's; channels-last "
    "(jit kernels) and the bias gradient as a product, 0.70-0.81x (0.85x on AVX-512). A 3x3 conv 16->C "
    "plus tanh, forward and backward: C = 3, 6 and 8 gain 2-9 %, C = 2 loses 2-3 %", XEON)
SHIFTED_CONV_MIN_CHANNELS = _measured(
    "SHIFTED_CONV_MIN_CHANNELS", 16, "kusari.utils.conv_shifted",
    "NumPy's stride-1 convolutions use the shifted GEMMs when input and output have this many channels",
    "with fewer, a filter tap's GEMM is too thin to beat one im2col GEMM", XEON)
SHIFTED_CONV_BLOCK_BYTES = _measured(
    "SHIFTED_CONV_BLOCK_BYTES", 1 << 19, "kusari.utils.conv_shifted",
    "the shifted GEMMs run over the grid in column blocks of about this many bytes",
    "a block's input and output columns stay in the core's L2 cache between the taps' GEMMs", XEON)
RELU_ZERO_ROW = _measured(
    "RELU_ZERO_ROW", True, "relu",
    "relu of a 2-D NumPy array (a linear layer's output) takes the maximum against a broadcast row of "
    "zeros, not the 0-d zero that other arrays take",
    "NumPy 2.4's float maximum runs its SIMD loop on two arrays but not on an array and a scalar: "
    "256x256, 34 us against the scalar, 16 us against the zero row. Rows as short as a convolution "
    "activation's cost more in broadcasting (on the Xeon, LeNet-5's 128x6x24x24 and 128x16x8x8: "
    "0.29 and 0.12 ms against the zero row, 0.19 and 0.04 ms against the 0-d zero)", EPYC)
ADAM_FLUSH_INTERVAL = _measured(
    "ADAM_FLUSH_INTERVAL", 16, "Adam and its variants",
    "steps between two flushes of Adam's subnormal first moments to 0 (on NumPy)",
    "a decaying moment spends about 150 steps in the subnormal range, where arithmetic is about 100x "
    "slower; flushing at every step cost 2 % of a SAC update, every 16th step bounds the slow steps to 16",
    EPYC)


def markdown() -> str:
    """:data:`TABLE` as the Markdown table that ``docs/performance.md`` shows, then the machines."""
    lines = ["| constant | value | used by | what it decides | measured reason | machine |",
             "|---|---|---|---|---|---|"]
    for row in TABLE.values():
        lines.append(f"| `{row.name}` | {_shown(row.value)} | {row.used_by} | {row.meaning} | {row.reason} "
                     f"| {row.machine} |")
    lines.append("")
    lines += [f"- {short}: {long}" for short, long in MACHINES.items()]
    return "\n".join(lines)


def _shown(value) -> str:
    if isinstance(value, bool) or value < 1024 or value & (value - 1):
        return f"`{value}`"
    return f"`2 ** {value.bit_length() - 1}`"
