"""The old-style ``Function`` (Chainer v1): forward and backward both on arrays.

Kept so that v1-style user code runs unchanged. Its backward is not differentiable; write a
``FunctionNode`` when double backprop is needed.
"""
from kusari import backend
from kusari.function_node import ForwardDispatch, FunctionNode
from kusari.variable import Variable


class FunctionAdapter(FunctionNode):
    """Runs an old-style Function inside the graph."""

    def __init__(self, function):
        self._function = function

    @property
    def label(self):
        return self._function.label

    def check_type_forward(self, in_types):
        self._function.check_type_forward(in_types)

    def forward(self, inputs):
        f = self._function
        outputs = f.forward(inputs)
        if not isinstance(outputs, tuple):
            raise TypeError(f"{f.label}.forward must return a tuple of arrays, got {type(outputs).__name__}")
        self.retain_inputs(tuple(range(len(inputs))) if f._retain_in is None else f._retain_in)
        self.retain_outputs(tuple(range(len(outputs))) if f._retain_out is None else f._retain_out)
        self._n_outputs = len(outputs)
        self._output_shapes = [(y.shape, y.dtype) for y in outputs]
        return outputs

    def backward(self, indexes, grad_outputs):
        f = self._function
        in_data = tuple(None if n.data is None else n.data for n in self.inputs)
        xp = backend.get_array_module(*[x for x in in_data if x is not None])
        gys = tuple(xp.zeros(shape, dtype) if g is None else g.array
                    for g, (shape, dtype) in zip(grad_outputs, self._output_shapes))
        gxs = f.backward(in_data, gys)
        if not isinstance(gxs, tuple):
            gxs = tuple(gxs) if isinstance(gxs, list) else (gxs,)
        return tuple(None if gxs[i] is None else Variable(gxs[i], requires_grad=False)
                     for i in indexes)


class Function(ForwardDispatch):
    """Old-style differentiable function; subclass and implement forward/backward on arrays.

    ``forward(inputs)`` and ``backward(inputs, grad_outputs)`` take and return tuples of arrays
    (or implement the ``_cpu`` / ``_gpu`` variants). Call the instance on Variables.
    """

    _retain_in = None
    _retain_out = None

    @property
    def node(self):
        return self._node

    @property
    def inputs(self):
        return tuple(n.get_variable() for n in self._node.inputs)

    @property
    def outputs(self):
        return self._node.outputs

    def __call__(self, *inputs):
        self._node = FunctionAdapter(self)
        ret = self._node.apply(inputs)
        return ret[0] if len(ret) == 1 else ret

    def backward(self, inputs, grad_outputs):
        if any(backend.is_gpu_array(x) for x in inputs if x is not None):
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def backward_gpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def check_type_forward(self, in_types):
        """Override to validate inputs with ``kusari.utils.type_check``."""

    def retain_inputs(self, indexes):
        """Keep only these inputs for backward (the others arrive as None)."""
        self._retain_in = tuple(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        self._retain_out = tuple(indexes)

    def unchain(self):
        self._node.unchain()
