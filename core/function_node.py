"""FunctionNode: a differentiable operation; ``forward`` works on arrays, ``backward`` on Variables."""
import sys
import weakref

import numpy

from kusari import backend
from kusari._static_guards import plain
from kusari._tracing import trace_hook
from kusari.configuration import config
from kusari.variable import Variable, new_variable


class ForwardDispatch:
    """``forward`` that calls ``forward_cpu`` or ``forward_gpu`` by where the inputs live (Chainer's
    split, shared by FunctionNode and the old-style Function)."""

    @property
    def label(self) -> str:
        return type(self).__name__

    def forward(self, inputs):
        """Compute outputs from input arrays; dispatches to forward_cpu / forward_gpu by default."""
        if any(backend.is_gpu_array(x) for x in inputs):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError(f"{self.label} implements neither forward nor forward_cpu")

    def forward_gpu(self, inputs):
        raise NotImplementedError(f"{self.label} implements neither forward nor forward_gpu")


class FunctionNode(ForwardDispatch):
    """Base of every differentiable op.

    Subclasses implement ``forward(inputs) -> tuple of arrays`` (or ``forward_cpu`` / ``forward_gpu``)
    and ``backward(target_input_indexes, grad_outputs) -> tuple of Variables or None``. A backward
    built from other FunctionNodes is itself differentiable, so double backprop comes free.
    ``retain_inputs`` / ``retain_outputs`` called inside ``forward`` say what backward needs.

    ``backward`` is an op's one gradient definition. When no graph of the backward is needed
    (no double backprop), backprop runs it on Variables without nodes, with
    ``config.enable_backprop`` off, so its ops record nothing (``kusari._backprop.run_node_backward``).

    An op may add ``backward_arrays(target_input_indexes, grad_outputs)``, the same gradients
    computed on arrays, only where a bench measures a loss over 5 % without it (the few that do
    are listed, with their figures, in docs/performance.md). ``grad_outputs`` are arrays or None;
    it returns one array or None per input (all inputs, or those of ``target_input_indexes``), or
    None as a whole to defer to ``backward`` for this call. Backprop calls it instead of
    ``backward`` when no graph of the backward is needed; ``kusari.testing.FunctionTestCase``
    proves it equal to ``backward`` bit for bit.

    A subclass that overrides ``backward`` does not inherit ``backward_arrays``: the inherited one
    computes the base's gradients, not the new ones. To keep it anyway, say so in the subclass:
    ``backward_arrays = Base.backward_arrays``.
    """

    inputs = None
    outputs = None
    rank = 0
    _input_indexes_to_retain = None
    _output_indexes_to_retain = None
    _retained_output_data = None

    backward_arrays = None    # the array-level twin of a few measured ops (see the class docstring)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "backward" in cls.__dict__ and "backward_arrays" not in cls.__dict__:
            cls.backward_arrays = None

    def __repr__(self):
        return f"<{self.label}>"

    def apply(self, inputs):
        """Run ``forward`` on the inputs' arrays and record this node in the graph when needed.

        Returns a tuple of Variables, one per output.
        """
        xs = []
        in_data = []
        requires_grad = False
        cfg = config
        record = cfg.enable_backprop
        rank = 0
        for x in inputs:
            if isinstance(x, Variable):
                if x._requires_grad:
                    requires_grad = True
                if record:   # the graph may be recorded: the inputs' ranks, in this one pass (no second loop)
                    node = x._node
                    if node.rank > rank:
                        rank = node.rank
                in_data.append(x._data)
            elif type(x) is numpy.ndarray or backend.is_array(x):   # the common case without a call
                in_data.append(x)   # stays bare: it gets a node only if the graph is recorded
            else:
                raise TypeError(
                    f"{self.label}: inputs must be Variables or arrays, got {type(x).__name__}")
            xs.append(x)
        in_data = tuple(in_data)
        if "cupy" in sys.modules:
            _check_same_backend(self.label, in_data)
        if type(self).check_type_forward is not _base_check_type_forward and cfg.type_check:
            from kusari.utils import type_check
            type_check._check_function_types(self, in_data)

        on_apply = trace_hook.on_apply
        if on_apply is None:
            outputs = self.forward(in_data)
        else:
            in_data = tuple([plain(x) for x in in_data])   # ops compute and retain plain arrays
            xs = [x if isinstance(x, Variable) else new_variable(a, False) for x, a in zip(xs, in_data)]
            outputs = on_apply(self, xs, in_data)
        if type(outputs) is not tuple:
            raise TypeError(f"{self.label}.forward must return a tuple of arrays, "
                            f"got {type(outputs).__name__}")
        if cfg.debug:
            _check_finite(self.label, outputs)

        if not (requires_grad and record):
            # No graph: the outputs get their nodes on first use, if ever (a backward without
            # double backprop runs its ops this way, so most never do).
            if len(outputs) == 1:
                return (new_variable(outputs[0], requires_grad, None, None, None),)
            return tuple([new_variable(y, requires_grad, None, None, None) for y in outputs])
        self.rank = rank
        self.inputs = nodes = tuple([x._node if isinstance(x, Variable) else new_variable(x, False)._node
                                     for x in xs])
        rank += 1
        if len(outputs) == 1:
            y = new_variable(outputs[0], True)
            node = y._node
            node.creator_node = self
            node.rank = rank
            ret = (y,)
            self.outputs = (weakref.ref(node),)
        else:
            ret = tuple([new_variable(y, True) for y in outputs])
            for y in ret:
                node = y._node
                node.creator_node = self
                node.rank = rank
            self.outputs = tuple([weakref.ref(y._node) for y in ret])
        retain = self._input_indexes_to_retain
        if retain is not None:
            for i in retain:
                nodes[i].data = in_data[i]
        retain = self._output_indexes_to_retain
        if retain is not None:
            self._retained_output_data = tuple([outputs[i] for i in retain])
        return ret

    def backward(self, target_input_indexes, grad_outputs):
        """Gradients (Variables or None) for the inputs listed in ``target_input_indexes``."""
        if type(self).backward_accumulate is not FunctionNode.backward_accumulate:
            # a Chainer node that defines backward_accumulate only: the engine adds the gradients itself
            return self.backward_accumulate(target_input_indexes, grad_outputs, (None,) * len(target_input_indexes))
        raise NotImplementedError(f"{self.label} does not implement backward")

    def backward_accumulate(self, target_input_indexes, grad_outputs, grad_inputs):
        """``backward``'s gradients, each added to the matching one of ``grad_inputs`` (None: nothing to add).

        Chainer's API. kusari's engine calls ``backward`` and accumulates itself; a node that overrides
        only this method gets a ``backward`` that calls it with no gradients to add.
        """
        gxs = tuple(self.backward(target_input_indexes, grad_outputs))
        if len(gxs) == len(self.inputs) != len(target_input_indexes):   # one per input, as Chainer allows
            gxs = tuple(gxs[i] for i in target_input_indexes)
        if len(gxs) != len(target_input_indexes):
            raise ValueError(f"{self.label}.backward returned {len(gxs)} gradients for "
                             f"{len(target_input_indexes)} target inputs")
        return tuple(gx if g_old is None else g_old if gx is None else gx + g_old
                     for gx, g_old in zip(gxs, grad_inputs))

    def check_type_forward(self, in_types):
        """Override to validate inputs with ``kusari.utils.type_check`` (Chainer style)."""

    def retain_inputs(self, indexes) -> None:
        """Keep the arrays of these inputs for backward (call inside forward)."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes) -> None:
        """Keep the arrays of these outputs for backward (call inside forward)."""
        self._output_indexes_to_retain = tuple(indexes)

    def get_retained_inputs(self):
        """The retained inputs as Variables, in the order given to ``retain_inputs``."""
        inputs = self.inputs
        return tuple([inputs[i].get_variable() for i in self._input_indexes_to_retain or ()])

    def get_retained_outputs(self):
        """The retained outputs as Variables connected to this node."""
        ret = []
        outputs = list(self.outputs)
        for i, data in zip(self._output_indexes_to_retain or (), self._retained_output_data or ()):
            node = outputs[i]()
            if node is None:
                var = Variable(data, requires_grad=True)
                var._node.set_creator_node(self)
                outputs[i] = weakref.ref(var._node)
            else:
                var = node._variable()
                if var is None:
                    var = Variable._from_node(data, node)
            ret.append(var)
        self.outputs = tuple(outputs)
        return tuple(ret)

    def unchain(self) -> None:
        """Forget inputs, outputs and retained data, cutting this node out of the graph."""
        for ref in self.outputs or ():
            node = ref()
            if node is not None:
                node.unchain()
        self.inputs = None
        self.outputs = None
        self._retained_output_data = None


_base_check_type_forward = FunctionNode.check_type_forward


def _check_same_backend(label, in_data):
    kinds = {type(x).__module__.split(".")[0] for x in in_data if x is not None}
    if len(kinds) > 1:
        raise TypeError(f"{label}: inputs mix NumPy and CuPy arrays "
                        f"({', '.join(type(x).__module__ + '.' + type(x).__name__ for x in in_data)}); "
                        "move them to one device first (Variable.to_device / kusari.backend.to_device)")


def _check_finite(label, outputs):
    for i, y in enumerate(outputs):
        if y is None or y.dtype.kind not in "fc":
            continue
        xp = backend.get_array_module(y)
        if not bool(xp.isfinite(y).all()):
            raise RuntimeError(f"NaN or Inf detected in output {i} of {label} (config.debug is on)")
