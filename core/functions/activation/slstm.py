"""slstm: the S-LSTM cell, an LSTM merging two child cells of a binary tree."""
from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.activation import _lstm_base


class SLSTM(FunctionNode):
    def forward(self, inputs):
        c_prev1, c_prev2, x1, x2 = inputs
        _lstm_base.check_cells_and_inputs(
            "slstm", [("c_prev1", c_prev1), ("c_prev2", c_prev2)], [("x1", x1), ("x2", x2)], 4)
        xp = backend.get_array_module(x1)
        self.retain_inputs((0, 1, 2, 3))
        a1, i1, f1, o1 = _lstm_base.split_gates(x1, 4, True)
        a2, i2, f2, o2 = _lstm_base.split_gates(x2, 4, True)
        return _lstm_base.cell_forward(xp, [a1, a2], [i1, i2], [f1, f2], o1 + o2,
                                       [c_prev1, c_prev2])

    def backward(self, indexes, grad_outputs):
        c_prev1, c_prev2, x1, x2 = self.get_retained_inputs()
        a1, i1, f1, o1 = _lstm_base.split_gates(x1, 4, True)
        a2, i2, f2, o2 = _lstm_base.split_gates(x2, 4, True)
        ga, gi, gf, go, gcs = _lstm_base.cell_backward(
            [a1, a2], [i1, i2], [f1, f2], o1 + o2, [c_prev1, c_prev2], *grad_outputs)
        ret = []
        for k in indexes:
            if k < 2:
                ret.append(gcs[k])
            else:
                j = k - 2
                ret.append(_lstm_base.merge_gates([ga[j], gi[j], gf[j], go], True))
        return tuple(ret)


def slstm(c_prev1, c_prev2, x1, x2):
    """S-LSTM cell over two children (Zhu et al., 2015).

    c_prev1, c_prev2: children's cell states of shape ``(B, H, ...)``. x1, x2: their gate
    inputs of shape ``(B, 4H, ...)``, gates interleaved as in ``lstm`` (a, i, f, o). Computes
    ``c = tanh(a1) sigmoid(i1) + tanh(a2) sigmoid(i2) + sigmoid(f1) c_prev1
    + sigmoid(f2) c_prev2`` and ``h = sigmoid(o1 + o2) tanh(c)``; returns ``(c, h)``, both of
    shape ``(B, H, ...)``.
    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
