"""copy: copy an array to a device (host or a GPU), differentiably."""
from kusari import backend
from kusari.function_node import FunctionNode


class Copy(FunctionNode):
    def __init__(self, dst):
        self._dst = backend.get_device(dst)

    def forward(self, inputs):
        x = inputs[0]
        self._src = backend.get_device_from_array(x)
        y = self._dst.send(x)
        # send() hands back the same array when it is already there; a copy must not alias x
        return (y.copy() if y is x else y),

    def backward(self, indexes, grad_outputs):
        return Copy(self._src).apply(grad_outputs)


def copy(x, dst):
    """A copy of ``x`` on device ``dst``; the gradient is sent back to ``x``'s device.

    ``dst``: ``'@numpy'``, ``'@cupy:N'``, an int (-1 host, N >= 0 GPU N) or a Device.
    Returns a Variable of ``x``'s shape and dtype.
    """
    try:
        node = Copy(dst)
    except (TypeError, ValueError) as e:
        raise type(e)(f"copy: dst={dst!r} is not a device ({e})") from None
    return node.apply((x,))[0]
