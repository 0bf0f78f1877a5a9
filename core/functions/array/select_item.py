"""select_item: pick one element per row of a matrix by integer labels."""
from kusari import backend
from kusari.function_node import FunctionNode


class SelectItem(FunctionNode):
    def forward(self, inputs):
        x, t = inputs
        if x.ndim != 2:
            raise ValueError(f"select_item: x must be 2-dimensional (batch, n_items), got shape {x.shape}")
        if t.dtype.kind not in "iu" or t.ndim != 1:
            raise TypeError(f"select_item: t must be a 1-D integer array, got shape={t.shape}, "
                            f"dtype={t.dtype}")
        if len(t) != len(x):
            raise ValueError(f"select_item: len(t)={len(t)} does not match x.shape[0]={x.shape[0]}")
        xp = backend.get_array_module(x)
        self._index = (xp.arange(len(t)), t)
        try:
            return x[self._index],
        except IndexError:
            raise IndexError(f"select_item: t holds a label outside [0, {x.shape[1]}) "
                             f"(x.shape={x.shape})") from None

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import GetItemGrad
        return tuple(GetItemGrad(self._index, self.inputs[0].shape).apply(grad_outputs)[0]
                     if i == 0 else None for i in indexes)


def select_item(x, t):
    """``y[i] = x[i, t[i]]``.

    ``x``: array of shape ``(B, K)``; ``t``: integer labels of shape ``(B,)`` in ``[0, K)``.
    Returns a Variable of shape ``(B,)``; no gradient flows to ``t``.
    """
    return SelectItem().apply((x, t))[0]
