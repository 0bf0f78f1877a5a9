"""Moving the real nodes' rows of a padded graph batch into a packed array and back, differentiably.

``real_rows(is_real_node)`` finds those rows (the mask is 1 for a real node, 0 for padding).

``take_rows(x, rows)`` is ``x[rows]`` and ``put_rows(y, rows, n)`` writes y's rows at ``rows`` of an
(n, ...) array of zeros. Each is the other's gradient. ``rows`` holds distinct indices, so the
gradients are plain assignments (``F.get_item``'s general gradient adds with ``numpy.add.at``, which
is about twenty times slower).
"""
from kusari import backend
from kusari.function_node import FunctionNode


class TakeRows(FunctionNode):
    """``x[rows]``: (n, ...) -> (len(rows), ...)."""

    def __init__(self, rows, n: int):
        self.rows = rows
        self.n = n

    def forward(self, inputs):
        return inputs[0][self.rows],

    def backward(self, indexes, grad_outputs):
        return PutRows(self.rows, self.n).apply(grad_outputs)

    def backward_arrays(self, indexes, grad_outputs):
        return _put(grad_outputs[0], self.rows, self.n),


class PutRows(FunctionNode):
    """Rows ``y`` at ``rows`` of zeros: (len(rows), ...) -> (n, ...)."""

    def __init__(self, rows, n: int):
        self.rows = rows
        self.n = n

    def forward(self, inputs):
        return _put(inputs[0], self.rows, self.n),

    def backward(self, indexes, grad_outputs):
        return TakeRows(self.rows, self.n).apply(grad_outputs)

    def backward_arrays(self, indexes, grad_outputs):
        return grad_outputs[0][self.rows],


def _put(y, rows, n: int):
    out = backend.get_array_module(y).zeros((n,) + y.shape[1:], y.dtype)
    out[rows] = y
    return out


def take_rows(x, rows):
    """``x[rows]`` for distinct integer ``rows`` (an int array of the same array module as x).

    x: Variable or array (n, ...); returns a Variable (len(rows), ...)."""
    return TakeRows(rows, x.shape[0]).apply((x,))[0]


def put_rows(y, rows, n: int):
    """An (n, ...) Variable of zeros with ``y``'s rows (len(rows), ...) at the distinct ``rows``."""
    return PutRows(rows, n).apply((y,))[0]


def real_rows(is_real_node):
    """The indices (int64, ascending) of the real nodes among the ``minibatch * node`` rows of a
    padded batch, from its 0/1 ``is_real_node`` mask (minibatch, node); the mask's array module."""
    return backend.get_array_module(is_real_node).flatnonzero(is_real_node.reshape(-1))
