"""lstm: the long short-term memory cell with a forget gate, as an activation of its gate inputs."""
from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.activation import _lstm_base


class LSTM(FunctionNode):
    def forward(self, inputs):
        c_prev, x = inputs
        _lstm_base.check_cells_and_inputs("lstm", [("c_prev", c_prev)], [("x", x)], 4,
                                          same_batch=False)
        batch = x.shape[0]
        if batch > c_prev.shape[0]:
            raise ValueError(f"lstm: x.shape[0]={batch} exceeds c_prev.shape[0]="
                             f"{c_prev.shape[0]}; sort sequences by decreasing length")
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        a, i, f, o = _lstm_base.split_gates(x, 4, True)
        c, h = _lstm_base.cell_forward(xp, [a], [i], [f], o, [c_prev[:batch]])
        if batch < c_prev.shape[0]:
            c = xp.concatenate((c, c_prev[batch:]), axis=0)
        return c, h

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.concat import concat
        c_prev, x = self.get_retained_inputs()
        gc, gh = grad_outputs
        batch = x.shape[0]
        split = batch < c_prev.shape[0]
        if split:
            # rows batch: of c were copied from c_prev: their gradient passes straight through
            c_used, gc_used = c_prev[:batch], None if gc is None else gc[:batch]
        else:
            c_used, gc_used = c_prev, gc
        a, i, f, o = _lstm_base.split_gates(x, 4, True)
        ga, gi, gf, go, gcs = _lstm_base.cell_backward([a], [i], [f], o, [c_used], gc_used, gh)
        ret = []
        if 0 in indexes:
            gc_prev = gcs[0]
            if split:
                rest = gc[batch:] if gc is not None else \
                    _lstm_base.zeros((c_prev.shape[0] - batch,) + c_prev.shape[1:], c_prev)
                gc_prev = concat((gc_prev, rest), 0)
            ret.append(gc_prev)
        if 1 in indexes:
            ret.append(_lstm_base.merge_gates([ga[0], gi[0], gf[0], go], True))
        return tuple(ret)


def lstm(c_prev, x):
    """LSTM cell: ``c = tanh(a) sigmoid(i) + sigmoid(f) c_prev``, ``h = sigmoid(o) tanh(c)``.

    c_prev: cell state of shape ``(B_c, H, ...)``. x: gate inputs of shape ``(B, 4H, ...)``
    with ``B <= B_c``, the gates interleaved along axis 1 (channel ``4u + g`` is gate ``g`` of
    unit ``u``, in the order a, i, f, o). Returns ``(c, h)``: ``c`` of shape ``(B_c, H, ...)``
    (rows ``B:`` copied from ``c_prev``) and ``h`` of shape ``(B, H, ...)``.
    """
    return LSTM().apply((c_prev, x))
