"""Variable (the user's handle on an array in the graph), VariableNode (its place in the graph) and Parameter."""
import weakref

import numpy

from kusari import _tracing, backend
from kusari.configuration import get_dtype


def _check_array(x, who: str):
    if backend.is_array(x):
        return
    raise TypeError(
        f"{who}: expected a numpy.ndarray or cupy.ndarray, got {type(x).__name__}"
        + (" (wrap Python scalars with numpy.asarray and choose a dtype)"
           if isinstance(x, (int, float, numpy.generic)) else ""))


class VariableNode:
    """A Variable's node in the computational graph: creator, rank, and data when a backward retains it."""

    __slots__ = ("_variable", "creator_node", "rank", "data", "shape", "dtype", "requires_grad",
                 "__weakref__")

    def __new__(cls, variable=None, requires_grad: bool = True):
        if variable is None:    # copy and pickle: they set the slots themselves
            return _object_new(cls)
        # Made by new_variable, the one place that sets the slots, then bound to ``variable``.
        node = new_variable(variable._data, requires_grad)._node
        node._variable = weakref.ref(variable)
        return node

    @property
    def creator(self):
        """The creator as an old-style Function when it wraps one, else the FunctionNode."""
        node = self.creator_node
        return getattr(node, "_function", node)

    @property
    def name(self):
        var = self._variable()
        return None if var is None else var.name

    @property
    def label(self) -> str:
        if self.shape == ():
            return str(self.dtype)
        return f"({', '.join(map(str, self.shape or ()))}), {self.dtype}"

    def set_creator_node(self, creator_node) -> None:
        self.creator_node = creator_node
        self.rank = creator_node.rank + 1

    def get_variable_or_none(self):
        """The Variable of this node if it is still alive, else None."""
        return self._variable()

    def get_variable(self):
        """The Variable of this node; recreated from the retained data if it has been freed."""
        var = self._variable()
        if var is not None:
            return var
        var = Variable._from_node(self.data, self)
        return var

    def retain_data(self) -> None:
        var = self._variable()
        if var is None:
            raise RuntimeError("cannot retain data of a node whose variable has been freed")
        self.data = var._data

    def unchain(self) -> None:
        self.creator_node = None
        self.rank = 0


class Variable:
    """An array with a place in the define-by-run graph.

    Parameters
    ----------
    data : numpy.ndarray or cupy.ndarray or None
        The array (any shape).
    name : str, optional
    grad : array, optional
        Initial gradient, same shape and dtype as ``data``.
    requires_grad : bool
        Whether backward computes a gradient for this variable.
    """

    __slots__ = ("_data", "_node", "_grad_var", "_requires_grad", "_name", "_loss_scale",
                 "__weakref__")
    __array_priority__ = 200

    def __init__(self, data=None, *, name=None, grad=None, requires_grad=True):
        new_variable(data, requires_grad, name,
                     None if grad is None else Variable(grad, requires_grad=False), True, self)

    def __getattr__(self, name):
        # Runs only when normal lookup fails: for a gradient made by new_gradient, on first use of its node.
        if name == "_node":
            node = self._node = VariableNode(self, self._requires_grad)
            return node
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def _from_node(cls, data, node):
        """A Variable bound to an existing node whose original Variable is gone."""
        return new_variable(data, node.requires_grad, None, None, node, _object_new(cls))

    # state, copy and pickle -------------------------------------------------
    def __getstate__(self):
        return {"data": self._data, "grad_var": self._grad_var,
                "requires_grad": self._requires_grad, "name": self._name}

    def __setstate__(self, state):
        new_variable(state["data"], state["requires_grad"], state["name"], state["grad_var"], True, self)

    # array access -----------------------------------------------------------
    @property
    def array(self):
        """The underlying array."""
        return self._data

    @array.setter
    def array(self, value):
        if value is not None:
            _check_array(value, "Variable.array")
        self._data = value
        node = self._node
        node.shape = None if value is None else value.shape
        node.dtype = None if value is None else value.dtype
        if node.data is not None:
            node.data = value

    data = array

    @property
    def grad_var(self):
        """The gradient as a Variable (None when not computed)."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g):
        if g is not None and not isinstance(g, Variable):
            raise TypeError(f"Variable.grad_var: expected a Variable or None, got {type(g).__name__}")
        self._grad_var = g

    @property
    def grad(self):
        """The gradient array (None when not computed)."""
        g = self._grad_var
        return None if g is None else g._data

    @grad.setter
    def grad(self, g):
        if g is None:
            self._grad_var = None
            return
        _check_array(g, "Variable.grad")
        data = self._data
        if data is not None and (g.dtype != data.dtype or g.shape != data.shape):
            error = TypeError if g.dtype != data.dtype else ValueError   # Chainer's two errors
            raise error(f"Variable.grad: a gradient of shape {g.shape} and dtype {g.dtype} for data of "
                        f"shape {data.shape} and dtype {data.dtype}")
        self._grad_var = Variable(g, requires_grad=False)

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, n):
        self._name = n

    @property
    def node(self) -> VariableNode:
        return self._node

    @property
    def creator_node(self):
        return self._node.creator_node

    @creator_node.setter
    def creator_node(self, func):
        self._node.set_creator_node(func)

    @property
    def creator(self):
        return self._node.creator

    @property
    def rank(self) -> int:
        return self._node.rank

    def set_creator_node(self, func) -> None:
        self._node.set_creator_node(func)

    def set_creator(self, func) -> None:
        self._node.set_creator_node(getattr(func, "node", func))

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return self._data.size

    @property
    def dtype(self):
        return self._data.dtype

    @property
    def xp(self):
        return backend.get_array_module(self._data)

    @property
    def device(self):
        return backend.get_device_from_array(self._data)

    @property
    def label(self) -> str:
        return self._node.label

    @property
    def T(self):
        from kusari.functions.array.transpose import transpose
        return transpose(self)

    def __len__(self):
        shape = self._data.shape
        if not shape:
            raise TypeError("len() of a 0-dimensional Variable")
        return shape[0]

    def __bool__(self):
        return bool(self._data)

    __hash__ = object.__hash__

    def item(self):
        """The single element as a Python scalar."""
        return self._data.item()

    def retain_data(self) -> None:
        self._node.data = self._data

    # gradients ----------------------------------------------------------------
    def cleargrad(self) -> None:
        """Set the gradient to None (replayed by a ``static_graph`` that calls it)."""
        trace = _tracing.trace_hook.current()
        if trace is not None:
            trace.record_call(self.cleargrad)
            return
        self._grad_var = None

    def zerograd(self) -> None:
        """Set the gradient to zeros, allocating if needed (replayed by a ``static_graph`` that calls it)."""
        trace = _tracing.trace_hook.current()
        if trace is not None:
            trace.record_call(self.zerograd)
            return
        if self._data is None:
            return
        if self._grad_var is None:
            xp = backend.get_array_module(self._data)
            self._grad_var = Variable(xp.zeros_like(self._data), requires_grad=False)
        else:
            self._grad_var._data.fill(0)

    def addgrad(self, var) -> None:
        """Add ``var``'s gradient into this variable's gradient (across devices)."""
        src = var._grad_var
        if src is None:
            return
        if self._data is None and var._data is not None:
            raise RuntimeError("Variable.addgrad: the destination is not initialized")
        dst_device = backend.get_device_from_array(self._data)
        g = dst_device.send(src._data)
        if self._grad_var is None:
            self._grad_var = Variable(g.copy(), requires_grad=False)
        else:
            self._grad_var._data += g

    def copydata(self, var) -> None:
        """Copy ``var``'s array into this variable's array (across devices).

        An uninitialized Parameter on either side is first initialized to the other's shape (by its
        initializer, then overwritten when it is the destination); both uninitialized: nothing to do.
        """
        src, dst = var._data, self._data
        if src is None:
            if dst is None:
                return
            var.initialize(dst.shape)
            src = var._data
        elif dst is None:
            self.initialize(src.shape)
            dst = self._data
        backend.copyto(dst, src)

    def backward(self, retain_grad: bool = False, enable_double_backprop: bool = False,
                 loss_scale=None) -> None:
        """Backpropagate from this variable through the graph that created it.

        If this variable has no gradient yet and holds one element, the seed gradient is 1.
        ``loss_scale`` multiplies the seed; optimizers divide the parameter gradients back.
        """
        from kusari._backprop import backward_from
        backward_from([self], [self._grad_var], retain_grad, enable_double_backprop, loss_scale)

    def unchain(self) -> None:
        """Cut the link to the creator, making this variable a root of its own graph."""
        self._node.unchain()

    def unchain_backward(self) -> None:
        """Cut every link in the graph behind this variable."""
        stack = [self._node]
        seen = set()
        while stack:
            node = stack.pop()
            func = node.creator_node
            node.unchain()
            if func is not None and id(func) not in seen:
                seen.add(id(func))
                if func.inputs:
                    stack.extend(func.inputs)
                func.unchain()

    # devices --------------------------------------------------------------------
    def to_device(self, device):
        """Move the array and the gradient to ``device`` in place; returns self."""
        device = backend.get_device(device)
        if self._data is not None:
            self.array = device.send(self._data)
        if self._grad_var is not None:
            self._grad_var._data = device.send(self._grad_var._data)
        return self

    def to_cpu(self):
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device=None):
        return self.to_device(backend.GpuDevice(0 if device is None else int(device)))

    # array methods --------------------------------------------------------------
    def reshape(self, *shape):
        from kusari.functions.array.reshape import reshape
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return reshape(self, shape)

    def transpose(self, *axes):
        from kusari.functions.array.transpose import transpose
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)) or axes == (None,):
            axes = axes[0]
        return transpose(self, axes or None)

    def sum(self, axis=None, keepdims=False):
        from kusari.functions.math.sum import sum as _sum
        return _sum(self, axis=axis, keepdims=keepdims)

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """(Weighted) mean over ``axis``: ``F.average(self, axis, weights, keepdims)``."""
        from kusari.functions.math.average import average
        return average(self, axis, weights, keepdims)

    def __floordiv__(self, other):
        """``floor(self / other)``, which has no gradient (``floor`` has none), as in Chainer."""
        from kusari.functions.math.rounding import floor
        return floor(self / other)

    def __rfloordiv__(self, other):
        from kusari.functions.math.rounding import floor
        return floor(other / self)

    def __repr__(self):
        if self._data is None:
            return f"variable({self._name or ''} uninitialized)"
        xp = backend.get_array_module(self._data)
        body = numpy.array2string(backend.CpuDevice().send(self._data), prefix="variable(",
                                  separator=" ")
        extra = "" if self._data.dtype == numpy.float32 else f", dtype={self._data.dtype}"
        where = "" if xp is numpy else f", device={self.device}"
        name = "" if self._name is None else f", name={self._name!r}"
        return f"variable({body}{extra}{where}{name})"

    def __str__(self):
        return "None" if self._data is None else str(self._data)

    def summary(self) -> str:
        """Shape, dtype, device, and whether a gradient is held."""
        return (f"name={self._name} shape={self.shape} dtype={self.dtype} device={self.device} "
                f"requires_grad={self._requires_grad} grad={'set' if self._grad_var is not None else None}")


class Parameter(Variable):
    """A Variable owned by a Link and updated by an optimizer.

    Parameters
    ----------
    initializer : Initializer, array, scalar or None
        How to fill the array; ``None`` fills with NaN so a missed initialization is visible.
    shape : int or tuple, optional
        Initialize now with this shape; otherwise on the first ``initialize(shape)`` call.
    """

    __slots__ = ("initializer", "update_rule", "_initial_device", "__dict__")

    def __init__(self, initializer=None, shape=None, name=None):
        from kusari import initializers
        if initializer is not None and (isinstance(initializer, numpy.ndarray)
                                        or backend.is_gpu_array(initializer)):
            super().__init__(initializer, name=name)
            self.initializer = initializers.Constant(initializer)
        else:
            super().__init__(None, name=name)
            if initializer is None:
                initializer = initializers.NaN()
            elif numpy.isscalar(initializer):
                initializer = initializers.Constant(initializer)
            self.initializer = initializer
        self.update_rule = None
        self._initial_device = backend.CpuDevice()
        if shape is not None and self._data is None:
            self.initialize(shape)

    @property
    def dtype(self):
        """The array's dtype; before initialization the one the initializer names (Chainer's rule)."""
        data = self._data
        if data is not None:
            return data.dtype
        dtype = getattr(self.initializer, "dtype", None)
        if dtype is None:
            raise RuntimeError(f"Parameter {self.name!r}: its dtype is not known until it is initialized "
                               f"(its initializer {type(self.initializer).__name__} names no dtype)")
        return numpy.dtype(dtype)

    def __getstate__(self):
        state = super().__getstate__()
        state.update(initializer=self.initializer, update_rule=self.update_rule,
                     initial_device=self._initial_device, extra=self.__dict__)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        self.initializer = state["initializer"]
        self.update_rule = state["update_rule"]
        self._initial_device = state["initial_device"]
        self.__dict__.update(state["extra"])

    @property
    def is_initialized(self) -> bool:
        return self._data is not None

    def initialize(self, shape) -> None:
        """Allocate and fill the array with ``shape`` using the initializer."""
        from kusari import initializers
        if isinstance(shape, (int, numpy.integer)):
            shape = (int(shape),)
        dtype = getattr(self.initializer, "dtype", None)
        xp = self._initial_device.xp
        with backend.using_device(self._initial_device):
            data = initializers.generate_array(self.initializer, tuple(shape), xp,
                                               dtype=get_dtype(dtype))
        self.array = data
        self._grad_var = None

    def to_device(self, device):
        device = backend.get_device(device)
        self._initial_device = device
        if self.update_rule is not None:
            self.update_rule._to_device(device)
        return super().to_device(device)

    def update(self) -> None:
        """Update the array with its update rule (set by an optimizer)."""
        if self.update_rule is not None:
            self.update_rule.update(self)

    def __repr__(self):
        return "parameter" + super().__repr__()[len("variable"):]


_object_new = object.__new__


# ``new_variable`` is the only place that sets the slots of Variable and VariableNode: every way
# of making one (``__init__``, unpickling, ``VariableNode(...)``, the engine's factories) goes
# through it, so a new slot is one edit. It is also the engine's hot constructor, called
# directly and building the node inline: a Python call per output is measurable on small ops.

def new_variable(data, requires_grad: bool, name=None, grad_var=None, node=True, var=None) -> Variable:
    """A Variable on array ``data`` (internal use: ``FunctionNode.apply``, backprop, static_graph).

    Parameters
    ----------
    data : numpy.ndarray, cupy.ndarray or None
        Any shape; checked only when it is not a NumPy array.
    requires_grad : bool
    name : str, optional
    grad_var : Variable, optional
    node : True, VariableNode or None
        True: a fresh node on ``data``; a VariableNode: bind it to the new Variable; None: no
        node until first use (``Variable.__getattr__``).
    var : Variable, optional
        Set the slots of this allocated instance instead of a new Variable (``__init__``).

    Returns
    -------
    Variable
    """
    if type(data) is not numpy.ndarray and data is not None:     # NumPy arrays: one check
        _check_array(data, "Variable")
    if var is None:
        var = _object_new(Variable)
    var._data = data
    var._requires_grad = requires_grad
    var._name = name
    var._loss_scale = None
    var._grad_var = grad_var
    if node is None:        # a gradient: no node until first use
        return var
    if node is not True:
        node._variable = weakref.ref(var)
        var._node = node
        return var
    n = _object_new(VariableNode)
    n._variable = weakref.ref(var)
    n.creator_node = None
    n.rank = 0
    n.data = None
    if data is None:
        n.shape = n.dtype = None
    else:
        n.shape = data.shape
        n.dtype = data.dtype
    n.requires_grad = requires_grad
    var._node = n
    return var


def new_gradient(data) -> Variable:
    """A Variable holding gradient array ``data``, made without its node (internal use: backprop).

    The node is made on first use (``Variable.__getattr__``): most gradients never enter a graph.
    """
    return new_variable(data, False, None, None, None)


def detached_node(shape, dtype, requires_grad: bool, rank: int) -> VariableNode:
    """A VariableNode owned by no Variable (internal use: static_graph's private graph).

    Backward recreates a Variable on it (``VariableNode.get_variable``) when it needs one.
    """
    node = new_variable(None, requires_grad)._node     # its Variable dies at once
    node.shape = shape
    node.dtype = dtype
    node.rank = rank
    return node


def as_variable(obj, requires_grad: bool = False) -> Variable:
    """``obj`` itself if it is a Variable, else a Variable wrapping the array."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=requires_grad)


def as_array(obj):
    """The array of a Variable, or ``obj`` itself."""
    return obj._data if isinstance(obj, Variable) else obj
