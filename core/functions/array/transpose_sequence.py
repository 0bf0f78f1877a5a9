"""transpose_sequence: turn a batch of sequences into a sequence of batches."""
from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.array._common import fill_missing


class TransposeSequence(FunctionNode):
    def forward(self, inputs):
        x0 = inputs[0]
        for i, x in enumerate(inputs):
            if x.ndim == 0:
                raise ValueError(f"transpose_sequence: xs[{i}] must have at least one dimension, "
                                 "got shape ()")
            if x.dtype != x0.dtype or x.shape[1:] != x0.shape[1:]:
                raise ValueError(f"transpose_sequence: xs[{i}] (shape={x.shape}, dtype={x.dtype}) "
                                 f"does not match xs[0] (shape={x0.shape}, dtype={x0.dtype}) "
                                 "after the length axis")
            if i and len(x) > len(inputs[i - 1]):
                raise ValueError(f"transpose_sequence: xs must be sorted by decreasing length, but "
                                 f"len(xs[{i}])={len(x)} > len(xs[{i - 1}])={len(inputs[i - 1])}")
        xp = backend.get_array_module(*inputs)
        return tuple(xp.stack([x[t] for x in inputs if len(x) > t]) for t in range(len(x0)))

    def backward(self, indexes, grad_outputs):
        nodes = self.inputs
        tail = nodes[0].shape[1:]
        lengths = [node.shape[0] for node in nodes]
        shapes = [(sum(n > t for n in lengths),) + tail for t in range(len(grad_outputs))]
        gys = fill_missing(grad_outputs, shapes, nodes[0].dtype)
        # transposing the batches back gives one gradient per non-empty sequence, in order
        gxs = TransposeSequence().apply(gys)
        return tuple(gxs[i] if lengths[i] else None for i in indexes)


def transpose_sequence(xs):
    """Turn sequences into time steps: ``ys[t] = stack([x[t] for x in xs if len(x) > t])``.

    ``xs``: arrays of shape ``(L_i, ...)`` sorted by decreasing ``L_i``. Returns a tuple of
    ``max(L_i)`` Variables; ``ys[t]`` has shape ``(#{i: L_i > t}, ...)``. Applying it to ``ys``
    gives back the non-empty ``xs``.
    """
    xs = tuple(xs)
    if not xs:
        return ()
    return TransposeSequence().apply(xs)
