"""take_rows: the rows ``x[rows]`` at distinct indices, whose gradient is put_rows."""
from kusari.chem.functions.array.put_rows import PutRows
from kusari.function_node import FunctionNode


class TakeRows(FunctionNode):
    """``x[rows]``: (n, ...) -> (len(rows), ...).

    ``rows`` holds distinct indices, so the gradient is a plain assignment (``F.get_item``'s general
    gradient adds with ``numpy.add.at``, which is about twenty times slower).
    """

    def __init__(self, rows, n: int):
        self.rows = rows
        self.n = n

    def forward(self, inputs):
        return inputs[0][self.rows],

    def backward(self, indexes, grad_outputs):
        return PutRows(self.rows, self.n).apply(grad_outputs)


def take_rows(x, rows):
    """``x[rows]`` for distinct integer ``rows`` (an int array of the same array module as x).

    x: Variable or array (n, ...); returns a Variable (len(rows), ...)."""
    return TakeRows(rows, x.shape[0]).apply((x,))[0]
