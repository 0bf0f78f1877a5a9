"""put_rows: an array of zeros with given rows at distinct indices, whose gradient is take_rows."""
from kusari import backend
from kusari.function_node import FunctionNode


class PutRows(FunctionNode):
    """Rows ``y`` at ``rows`` of zeros: (len(rows), ...) -> (n, ...)."""

    def __init__(self, rows, n: int):
        self.rows = rows
        self.n = n

    def forward(self, inputs):
        y = inputs[0]
        out = backend.get_array_module(y).zeros((self.n,) + y.shape[1:], y.dtype)
        out[self.rows] = y
        return out,

    def backward(self, indexes, grad_outputs):
        from kusari.chem.functions.array.take_rows import TakeRows   # each is the other's gradient
        return TakeRows(self.rows, self.n).apply(grad_outputs)


def put_rows(y, rows, n: int):
    """An (n, ...) Variable of zeros with ``y``'s rows (len(rows), ...) at the distinct ``rows``.

    y: Variable or array (len(rows), ...); rows: int array of the same array module as y."""
    return PutRows(rows, n).apply((y,))[0]
