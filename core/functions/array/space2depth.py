"""space2depth: rearrange spatial blocks into channel blocks (inverse of depth2space)."""
from kusari.function_node import FunctionNode
from kusari.functions.array.depth2space import check_block_args, depth2space


class Space2Depth(FunctionNode):
    def __init__(self, r):
        self._r = r

    def forward(self, inputs):
        x = inputs[0]
        r = self._r
        check_block_args("space2depth", x, r)
        n, c, h, w = x.shape
        if h % r or w % r:
            raise ValueError(f"space2depth: X's height {h} and width {w} must be divisible by "
                             f"r={r} (X.shape={x.shape})")
        y = x.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, r * r * c, h // r, w // r),

    def backward(self, indexes, grad_outputs):
        return depth2space(grad_outputs[0], self._r),


def space2depth(X, r):
    """Move ``r x r`` spatial blocks into ``r*r`` channel blocks (inverse of ``depth2space``).

    ``X``: array of shape ``(n, c, h * r, w * r)``. Returns a Variable of shape
    ``(n, c * r * r, h, w)`` with ``y[:, (i*r + j)*c + k, h, w] = X[:, k, h*r + i, w*r + j]``.
    """
    return Space2Depth(r).apply((X,))[0]
