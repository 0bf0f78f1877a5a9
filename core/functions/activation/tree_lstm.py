"""tree_lstm: the N-ary TreeLSTM cell, an LSTM merging N child cells with one forget gate each."""
from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.activation import _lstm_base


class TreeLSTM(FunctionNode):
    def forward(self, inputs):
        cs, x = inputs[:-1], inputs[-1]
        n = len(cs)
        _lstm_base.check_cells_and_inputs(
            "tree_lstm", [(f"c{k + 1}", c) for k, c in enumerate(cs)], [("x", x)], n + 3)
        xp = backend.get_array_module(x)
        self.retain_inputs(tuple(range(n + 1)))
        a, i, o, *fs = _lstm_base.split_gates(x, n + 3, False)
        return _lstm_base.cell_forward(xp, [a], [i], fs, o, list(cs))

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        cs, x = inputs[:-1], inputs[-1]
        n = len(cs)
        a, i, o, *fs = _lstm_base.split_gates(x, n + 3, False)
        ga, gi, gf, go, gcs = _lstm_base.cell_backward([a], [i], fs, o, list(cs), *grad_outputs)
        return tuple(gcs[k] if k < n else
                     _lstm_base.merge_gates([ga[0], gi[0], go] + gf, False) for k in indexes)


def tree_lstm(*inputs):
    """N-ary TreeLSTM cell (Tai et al., 2015; Bowman et al., 2016): ``tree_lstm(c1, ..., cN, x)``.

    c1..cN: children's cell states of shape ``(B, H, ...)``. x: gate inputs of shape
    ``(B, (3 + N) H, ...)`` split into consecutive blocks a, i, o, f1, ..., fN. Computes
    ``c = tanh(a) sigmoid(i) + sum_k sigmoid(f_k) c_k`` and ``h = sigmoid(o) tanh(c)``;
    returns ``(c, h)``, both of shape ``(B, H, ...)``.
    """
    if len(inputs) < 2:
        raise ValueError(f"tree_lstm: needs at least one cell state and x, got {len(inputs)} "
                         "input(s)")
    return TreeLSTM().apply(inputs)
