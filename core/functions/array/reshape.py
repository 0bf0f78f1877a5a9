"""reshape: give an array a new shape with the same number of elements."""
from kusari.function_node import FunctionNode
from kusari.variable import as_variable


class Reshape(FunctionNode):
    def __init__(self, shape):
        self._shape = shape

    def forward(self, inputs):
        x = inputs[0]
        try:
            return x.reshape(self._shape),
        except ValueError:
            raise ValueError(f"reshape: cannot reshape x of shape {x.shape} (size {x.size}) "
                             f"into shape {self._shape}") from None

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self.inputs[0].shape),


def reshape(x, shape):
    """``x`` with shape ``shape`` (one entry may be -1)."""
    shape = tuple(shape)
    if getattr(x, "shape", None) == shape:
        return as_variable(x)
    return Reshape(shape).apply((x,))[0]
