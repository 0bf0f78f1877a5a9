"""The arithmetic behind Variable's operators: + - * / ** @, negation, abs and comparisons.

Binary ops broadcast (NumPy rules) and sum gradients back to each input's shape. Python scalars
keep the Variable's dtype (NumPy 2 weak-scalar rules); NumPy scalars are cast to it, so a float32
graph never turns float64 behind the user's back.
"""
import numpy

from kusari import backend, utils
from kusari.functions.array.sum_to import _sum_to
from kusari.function_node import FunctionNode
from kusari.functions.util.non_differentiable import non_differentiable
from kusari.variable import Variable
from kusari.utils.type_check import InvalidType


def _sum_to_input(g, node):
    if g._data.shape == node.shape:
        return g
    from kusari.functions.array.sum_to import sum_to
    return sum_to(g, node.shape)


def _check_operands(fname, a, b):
    if a.dtype != b.dtype:
        raise InvalidType(None, None, f"{fname}: operand dtypes differ ({a.dtype} and {b.dtype}, shapes "
                                      f"{a.shape} and {b.shape}); cast explicitly, kusari never upcasts")


def _convert_value_to_string(value) -> str:
    """A constant operand as Chainer's labels show it: a scalar's ``str`` (in parentheses when negative),
    ``'constant array'`` for an array or a Variable."""
    if isinstance(value, Variable):
        value = value.array
    if numpy.isscalar(value):
        return f"({value})" if value < 0 else str(value)
    if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
        return "constant array"
    raise TypeError(f"_convert_value_to_string: value must be a scalar, an array or a Variable, got "
                    f"{type(value).__name__}")


class _Binary(FunctionNode):
    _fname = ""

    def forward(self, inputs):
        a, b = inputs
        if a.dtype is not b.dtype:
            _check_operands(self._fname, a, b)
        try:
            y = self._op(a, b)
        except ValueError:
            raise InvalidType(None, None, f"{self._fname}: shapes {a.shape} and {b.shape} do not broadcast") from None
        return (y if type(y) is numpy.ndarray else utils.force_array(y)),


class Add(_Binary):
    _fname = "add"
    label = "_ + _"  # Chainer's label (computational graphs, error messages)

    @staticmethod
    def _op(a, b):
        return a + b

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        inputs = self.inputs
        return tuple([_sum_to_input(gy, inputs[i]) for i in indexes])

    def backward_arrays(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        inputs = self.inputs
        return tuple([_sum_to(gy, inputs[i].shape) for i in indexes])


class Sub(_Binary):
    _fname = "sub"
    label = "_ - _"  # Chainer's label (computational graphs, error messages)

    @staticmethod
    def _op(a, b):
        return a - b

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        return tuple(_sum_to_input(gy if i == 0 else -gy, self.inputs[i]) for i in indexes)


class Mul(_Binary):
    _fname = "mul"
    label = "_ * _"  # Chainer's label (computational graphs, error messages)

    def _op(self, a, b):
        self.retain_inputs((0, 1))
        return a * b

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy = grad_outputs[0]
        return tuple(_sum_to_input(gy * (b if i == 0 else a), self.inputs[i]) for i in indexes)


class Div(_Binary):
    _fname = "div"
    label = "_ / _"  # Chainer's label (computational graphs, error messages)

    def _op(self, a, b):
        self.retain_inputs((0, 1))
        return a / b

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        ga = grad_outputs[0] / b
        ret = []
        for i in indexes:
            g = ga if i == 0 else -ga * a / b
            ret.append(_sum_to_input(g, self.inputs[i]))
        return tuple(ret)


class PowVarVar(_Binary):
    _fname = "pow"
    label = "_ ** _"  # Chainer's label (computational graphs, error messages)

    def _op(self, a, b):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return a ** b

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.exponential import log
        a, b = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy = grad_outputs[0]
        ret = []
        for i in indexes:
            g = gy * b * a ** (b - 1) if i == 0 else gy * y * log(a)
            ret.append(_sum_to_input(g, self.inputs[i]))
        return tuple(ret)


class AddConstant(FunctionNode):
    def __init__(self, value):
        self.value = value

    @property
    def label(self) -> str:
        return "_ + {}".format(_convert_value_to_string(self.value))

    def forward(self, inputs):
        return utils.force_array(inputs[0] + self.value),

    def backward(self, indexes, grad_outputs):
        return grad_outputs


class SubFromConstant(FunctionNode):
    def __init__(self, value):
        self.value = value

    @property
    def label(self) -> str:
        return "{} - _".format(_convert_value_to_string(self.value))

    def forward(self, inputs):
        return utils.force_array(self.value - inputs[0]),

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


class MulConstant(FunctionNode):
    def __init__(self, value):
        self.value = value

    @property
    def label(self) -> str:
        return "_ * {}".format(_convert_value_to_string(self.value))

    def forward(self, inputs):
        return utils.force_array(inputs[0] * self.value),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.value,


class DivFromConstant(FunctionNode):
    def __init__(self, value):
        self.value = value

    @property
    def label(self) -> str:
        return "{} / _".format(_convert_value_to_string(self.value))

    def forward(self, inputs):
        self.retain_inputs((0,))
        return utils.force_array(self.value / inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return -grad_outputs[0] * self.value / (x * x),


class PowVarConst(FunctionNode):
    def __init__(self, value):
        self.value = value

    @property
    def label(self) -> str:
        return "_ ** {}".format(_convert_value_to_string(self.value))

    def forward(self, inputs):
        self.retain_inputs((0,))
        return utils.force_array(inputs[0] ** self.value),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        c = self.value
        if self._squares:
            return grad_outputs[0] * x * 2.0,
        return grad_outputs[0] * c * x ** (c - 1),

    @property
    def _squares(self) -> bool:
        """Whether the power is 2, whose gradient ``2x`` needs no power."""
        c = self.value
        return isinstance(c, (int, float)) and c == 2


class PowConstVar(FunctionNode):
    def __init__(self, value):
        self.value = value

    @property
    def label(self) -> str:
        return "{} ** _".format(_convert_value_to_string(self.value))

    def forward(self, inputs):
        self.retain_outputs((0,))
        return utils.force_array(self.value ** inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        xp = backend.get_array_module(y.array)
        log_c = xp.log(xp.asarray(self.value, dtype=y.dtype))
        return grad_outputs[0] * y * utils.force_type(y.dtype, log_c),


class Neg(FunctionNode):
    label = "__neg__"

    def forward(self, inputs):
        return utils.force_array(-inputs[0]),

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


class Absolute(FunctionNode):
    label = "|_|"

    def forward(self, inputs):
        x = inputs[0]
        self.retain_inputs((0,))
        return utils.force_array(abs(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = backend.get_array_module(x.array)
        return grad_outputs[0] * utils.force_array(xp.sign(x.array)),


def _as_constant(value, like):
    """A scalar operand cast so it cannot promote ``like``'s dtype; None if ``value`` is an array.

    A 0-d array of ``like``'s dtype stays an array operand: a static_graph replay then reads its
    value at each call instead of freezing the traced one.
    """
    if isinstance(value, numpy.ndarray) and value.ndim == 0 and value.dtype == like.dtype:
        return None
    if isinstance(value, numpy.generic) or (isinstance(value, numpy.ndarray) and value.ndim == 0):
        if like.dtype.kind == "f":
            return like.dtype.type(value)
        return value
    if isinstance(value, (bool, int, float)):
        return value
    return None


def _binary(self, other, cls, const_cls, reverse=False, const_rcls=None):
    # An array operand stays bare (apply gives it a node only when it records the graph): a
    # backward run without a graph multiplies by arrays often (a slope, a mask).
    if isinstance(other, Variable) or (type(other) is numpy.ndarray and other.ndim):
        return cls().apply((other, self) if reverse else (self, other))[0]
    c = _as_constant(other, self._data)
    if c is not None:
        cls_ = const_rcls if reverse else const_cls
        return cls_(c).apply((self,))[0]
    if not (isinstance(other, numpy.ndarray) or backend.is_gpu_array(other)):
        return NotImplemented
    return cls().apply((other, self) if reverse else (self, other))[0]


def add(*xs):
    """Elementwise sum of any number of Variables or arrays (``F.add``), with broadcasting."""
    if not xs:
        raise ValueError("add: needs at least one input")
    y = xs[0] if isinstance(xs[0], Variable) else Variable(xs[0], requires_grad=False)
    for x in xs[1:]:
        y = Add().apply((y, x))[0]
    return y


def _radd(self, other):
    return _binary(self, other, Add, AddConstant, True, AddConstant)


def _rsub(self, other):
    return _binary(self, other, Sub, None, True, SubFromConstant)


def _rmul(self, other):
    return _binary(self, other, Mul, MulConstant, True, MulConstant)


def _rdiv(self, other):
    return _binary(self, other, Div, None, True, DivFromConstant)


def _rpow(self, other):
    return _binary(self, other, PowVarVar, None, True, PowConstVar)


def _div(self, other):
    c = _as_constant(other, self._data)
    if c is not None:
        return MulConstant(1.0 / c if isinstance(c, (int, float)) else 1 / c).apply((self,))[0]
    return _binary(self, other, Div, None)


def _sub(self, other):
    c = _as_constant(other, self._data)
    if c is not None:
        return AddConstant(-c).apply((self,))[0]
    return _binary(self, other, Sub, None)


def _compare(op):
    def method(self, other):
        other = other.array if isinstance(other, Variable) else other
        if isinstance(other, numpy.ndarray) or backend.is_gpu_array(other):
            return non_differentiable(op.__name__, lambda a, b: (op(a, b),), self.array, other)[0]
        return non_differentiable(op.__name__, lambda a: (op(a, other),), self.array)[0]
    return method


def install_variable_arithmetics() -> None:
    """Attach the operators to Variable (called once when kusari is imported)."""
    import operator
    from kusari.functions.array.get_item import get_item
    V = Variable
    V.__neg__ = lambda self: Neg().apply((self,))[0]
    V.__abs__ = lambda self: Absolute().apply((self,))[0]
    V.__pos__ = lambda self: self
    V.__add__ = lambda self, o: _binary(self, o, Add, AddConstant)
    V.__radd__ = _radd
    V.__sub__ = _sub
    V.__rsub__ = _rsub
    V.__mul__ = lambda self, o: _binary(self, o, Mul, MulConstant)
    V.__rmul__ = _rmul
    V.__truediv__ = _div
    V.__rtruediv__ = _rdiv
    V.__pow__ = lambda self, o: _binary(self, o, PowVarVar, PowVarConst)
    V.__rpow__ = _rpow
    V.__matmul__ = lambda self, o: _matmul(self, o)
    V.__rmatmul__ = lambda self, o: _matmul(o, self)
    V.__getitem__ = get_item
    V.__lt__ = _compare(operator.lt)
    V.__le__ = _compare(operator.le)
    V.__gt__ = _compare(operator.gt)
    V.__ge__ = _compare(operator.ge)
    V.__eq__ = _compare(operator.eq)
    V.__ne__ = _compare(operator.ne)
    V.__hash__ = object.__hash__


def _matmul(a, b):
    from kusari.functions.math.matmul import matmul
    return matmul(a, b)
