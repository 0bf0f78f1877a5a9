"""depth2space: rearrange channel blocks into spatial blocks (sub-pixel upscaling)."""
import numbers

from kusari.function_node import FunctionNode


def check_block_args(fname, x, r):
    """Validate the 4-D input and the block size ``r`` shared by depth2space and space2depth."""
    if not isinstance(r, numbers.Integral) or r < 1:
        raise ValueError(f"{fname}: r must be a positive int, got {r!r}")
    if x.ndim != 4:
        raise ValueError(f"{fname}: X must be 4-dimensional (batch, channel, height, width), "
                         f"got shape {x.shape}")


class Depth2Space(FunctionNode):
    def __init__(self, r):
        self._r = r

    def forward(self, inputs):
        x = inputs[0]
        r = self._r
        check_block_args("depth2space", x, r)
        n, c, h, w = x.shape
        if c % (r * r):
            raise ValueError(f"depth2space: X.shape[1]={c} is not divisible by r*r={r * r} "
                             f"(X.shape={x.shape})")
        y = x.reshape(n, r, r, c // (r * r), h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(n, c // (r * r), h * r, w * r),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.space2depth import space2depth
        return space2depth(grad_outputs[0], self._r),


def depth2space(X, r):
    """Move ``r*r`` channel blocks into ``r x r`` spatial blocks (inverse of ``space2depth``).

    ``X``: array of shape ``(n, c * r * r, h, w)``. Returns a Variable of shape
    ``(n, c, h * r, w * r)`` with ``y[:, k, h*r + i, w*r + j] = X[:, (i*r + j)*c + k, h, w]``.
    """
    return Depth2Space(r).apply((X,))[0]
