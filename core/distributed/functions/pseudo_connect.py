"""pseudo_connect: join a send's delegate to values, so that one backward runs both."""
import numpy

from kusari.function_node import FunctionNode
from kusari.variable import Variable


class PseudoConnect(FunctionNode):
    """Outputs its inputs after the first unchanged; the first (the delegate) gets a zero gradient,
    which is what makes backprop reach the send behind it."""

    @property
    def label(self):
        return "pseudo_connect"

    def forward(self, inputs):
        self._delegate_spec = inputs[0].shape, inputs[0].dtype
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        out = []
        for i in target_input_indexes:
            if i == 0:
                shape, dtype = self._delegate_spec
                out.append(Variable(numpy.zeros(shape, dtype)))
            else:
                out.append(grad_outputs[i - 1])
        return tuple(out)


def pseudo_connect(delegate_variable, *actual_variables):
    """``actual_variables`` (one Variable, or a tuple), joined to ``delegate_variable`` so that their
    backward also runs the send that produced the delegate (for a rank whose output is sent and
    which also computes a loss of its own)."""
    if delegate_variable is None:
        raise ValueError("pseudo_connect: delegate_variable is None; pass the value a send returned")
    ys = PseudoConnect().apply((delegate_variable,) + tuple(actual_variables))
    return ys[0] if len(ys) == 1 else ys
