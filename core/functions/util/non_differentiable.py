"""non_differentiable: an array computation run as an op without gradients (accuracy, comparisons, sign).

Running it as an op, rather than as bare array code that wraps its result in a Variable, lets
``static_graph`` record it and compute it afresh at every replay instead of freezing its traced value.
"""
from kusari import utils
from kusari.function_node import FunctionNode


class NonDifferentiable(FunctionNode):
    """``fn(*arrays)``, a tuple of arrays, as an op whose outputs carry no gradient."""

    def __init__(self, label, fn):
        self._label = label
        self._fn = fn

    @property
    def label(self) -> str:
        return self._label

    def forward(self, inputs):
        return tuple([utils.force_array(y) for y in self._fn(*inputs)])


def non_differentiable(label: str, fn, *arrays):
    """The Variables (without gradient) of ``fn(*arrays)``, which returns a tuple of arrays.

    ``arrays`` must be bare arrays (not Variables), so that no graph is recorded.
    """
    return NonDifferentiable(label, fn).apply(arrays)
