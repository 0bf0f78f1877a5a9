"""pad_sequence: pack variable-length sequences into one padded batch array."""
from kusari import backend
from kusari.function_node import FunctionNode


class PadSequence(FunctionNode):
    def __init__(self, length, padding):
        self._length = length
        self._padding = padding

    def forward(self, inputs):
        x0 = inputs[0]
        for i, x in enumerate(inputs):
            if x.ndim == 0:
                raise ValueError(f"pad_sequence: xs[{i}] must have at least one dimension, got shape ()")
            if x.dtype != x0.dtype:
                raise TypeError(f"pad_sequence: xs[{i}].dtype={x.dtype} differs from "
                                f"xs[0].dtype={x0.dtype}; cast explicitly, kusari never upcasts")
            if x.shape[1:] != x0.shape[1:]:
                raise ValueError(f"pad_sequence: xs[{i}].shape={x.shape} and xs[0].shape={x0.shape} "
                                 "differ after the first (length) axis")
        longest = max(x.shape[0] for x in inputs)
        length = longest if self._length is None else self._length
        if length < longest:
            raise ValueError(f"pad_sequence: length={length} is shorter than the longest "
                             f"sequence ({longest})")
        xp = backend.get_array_module(*inputs)
        y = xp.full((len(inputs), length) + x0.shape[1:], self._padding, dtype=x0.dtype)
        for i, x in enumerate(inputs):
            y[i, :len(x)] = x
        return y,

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        return tuple(gy[i, :self.inputs[i].shape[0]] for i in indexes)


def pad_sequence(xs, length=None, padding=0):
    """Stack sequences ``xs[i]`` of shape ``(L_i, ...)`` into one ``(len(xs), length, ...)`` array.

    Positions past ``L_i`` are filled with the scalar ``padding``; ``length`` defaults to
    ``max(L_i)``.
    """
    xs = tuple(xs)
    if not xs:
        raise ValueError("pad_sequence: needs at least one sequence, got an empty sequence")
    return PadSequence(length, padding).apply(xs)[0]
