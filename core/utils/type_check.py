"""Chainer's type-checking DSL: symbolic expressions over input shapes and dtypes for ``check_type_forward``.

Inside ``check_type_forward(self, in_types)`` every ``in_types[i]`` is an expression; ``.shape``,
``.ndim``, ``.dtype``, ``.dtype.kind``, indexing, arithmetic and comparisons build bigger
expressions, and ``expect(*conditions)`` evaluates the comparisons, raising ``InvalidType`` with
the failed condition and the values it saw::

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ("x", "W"))
        x_type, w_type = in_types
        type_check.expect(x_type.dtype.kind == "f", x_type.shape[1] == w_type.shape[1])
"""
import operator

import numpy

from kusari import backend


class TypeInfo:
    """Shape and dtype of one input array (what the expressions evaluate against)."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.ndim = len(self.shape)

    @property
    def size(self) -> int:
        size = 1
        for s in self.shape:
            size *= s
        return size


_NO_ACTUAL = object()


class InvalidType(ValueError, TypeError):
    """Raised when inputs do not satisfy a ``check_type_forward`` condition or kusari's input checks.

    ``expect`` and ``actual`` hold the condition and the values it was evaluated with. It is both a
    ``ValueError`` and a ``TypeError``, so code written for Chainer (``except InvalidType``) and code
    that catches the built-in errors kusari's checks raise both work.
    """

    def __init__(self, expect, actual=_NO_ACTUAL, msg=None):
        if actual is _NO_ACTUAL:   # InvalidType(message), as code that re-raises type(e)(message) calls it
            expect, actual, msg = None, None, str(expect)
        self.expect = expect
        self.actual = actual
        self.body = msg if msg is not None else f"Expect: {expect}\nActual: {actual}"
        super().__init__(self.body)

    def __reduce__(self):
        return type(self), (self.expect, self.actual, self.body)


def _repr(value) -> str:
    if isinstance(value, Expr):
        return str(value)
    if isinstance(value, type) and issubclass(value, numpy.generic):
        return f"numpy.{value.__name__}"
    if isinstance(value, numpy.dtype):
        return str(value)
    if isinstance(value, numpy.generic):
        return repr(value.item())
    if isinstance(value, tuple):
        inner = ", ".join(_repr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(_repr(v) for v in value) + "]"
    return repr(value)


def _value(x):
    if isinstance(x, Expr):
        return x.eval()
    if isinstance(x, (tuple, list)):
        return type(x)(_value(v) for v in x)
    return x


def _subscript_str(key) -> str:
    if key is Ellipsis:
        return "..."
    if isinstance(key, slice):
        parts = ["" if v is None else _repr(v) for v in (key.start, key.stop)]
        if key.step is not None:
            parts.append(_repr(key.step))
        return ":".join(parts)
    if isinstance(key, tuple):
        return ", ".join(_subscript_str(k) for k in key)
    return _repr(key)


# Python's operator precedence, used to parenthesize when printing.
_ATOM, _UNARY, _POWER, _MUL, _ADD, _SHIFT, _AND, _XOR, _OR, _COMPARE = 9, 7, 8, 6, 5, 4, 3, 2, 1, 0


def _binary(symbol, priority, func, right_assoc=False):
    def op(self, other):
        return BinaryOperator(priority, self, other, symbol, func, right_assoc)

    def rop(self, other):
        return BinaryOperator(priority, other, self, symbol, func, right_assoc)
    return op, rop


def _compare(symbol, inverse, func):
    return lambda self, other: Comparison(self, other, symbol, inverse, func)


def _unary(symbol, func):
    return lambda self: UnaryOperator(self, symbol, func)


class Expr:
    """A node of a symbolic expression; ``eval()`` computes its value, ``str()`` shows its source.

    Comparisons return testable expressions for ``expect``; using an expression as a Python bool
    is an error (``a == b and c == d`` would silently check only ``c == d``).
    """

    priority = _ATOM
    __array_ufunc__ = None  # NumPy scalars on the left defer to our reflected operators

    def eval(self):
        raise NotImplementedError

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    def __bool__(self):
        raise RuntimeError(f"type_check: cannot use the expression '{self}' as a bool; pass "
                           "conditions to type_check.expect or call type_check.eval")

    __eq__ = _compare("==", "!=", operator.eq)
    __ne__ = _compare("!=", "==", operator.ne)
    __lt__ = _compare("<", ">=", operator.lt)
    __le__ = _compare("<=", ">", operator.le)
    __gt__ = _compare(">", "<=", operator.gt)
    __ge__ = _compare(">=", "<", operator.ge)
    __hash__ = None

    __add__, __radd__ = _binary("+", _ADD, operator.add)
    __sub__, __rsub__ = _binary("-", _ADD, operator.sub)
    __mul__, __rmul__ = _binary("*", _MUL, operator.mul)
    __truediv__, __rtruediv__ = _binary("/", _MUL, operator.truediv)
    __floordiv__, __rfloordiv__ = _binary("//", _MUL, operator.floordiv)
    __mod__, __rmod__ = _binary("%", _MUL, operator.mod)
    __pow__, __rpow__ = _binary("**", _POWER, operator.pow, right_assoc=True)
    __lshift__, __rlshift__ = _binary("<<", _SHIFT, operator.lshift)
    __rshift__, __rrshift__ = _binary(">>", _SHIFT, operator.rshift)
    __and__, __rand__ = _binary("&", _AND, operator.and_)
    __xor__, __rxor__ = _binary("^", _XOR, operator.xor)
    __or__, __ror__ = _binary("|", _OR, operator.or_)
    __neg__ = _unary("-", operator.neg)
    __pos__ = _unary("+", operator.pos)
    __invert__ = _unary("~", operator.invert)


class Constant(Expr):
    """A literal value."""

    def __init__(self, value):
        self.value = value

    def __str__(self):
        return _repr(self.value)

    def eval(self):
        return self.value


class Variable(Expr):
    """A named value, e.g. ``in_types[0]`` (renamed by ``argname``)."""

    def __init__(self, value, name):
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def eval(self):
        return self.value


class GetAttr(Expr):
    def __init__(self, obj, name):
        self.obj = obj
        self.name = name

    def __str__(self):
        return f"{_repr(self.obj)}.{self.name}"

    def eval(self):
        return getattr(_value(self.obj), self.name)


class GetItem(Expr):
    def __init__(self, obj, key):
        self.obj = obj
        self.key = key

    def __str__(self):
        return f"{_repr(self.obj)}[{_subscript_str(self.key)}]"

    def eval(self):
        key = self.key
        if isinstance(key, slice):
            key = slice(_value(key.start), _value(key.stop), _value(key.step))
        return _value(self.obj)[_value(key)]


class Call(Expr):
    def __init__(self, obj, args):
        self.obj = obj
        self.args = tuple(args)

    def __str__(self):
        return f"{_repr(self.obj)}({', '.join(_repr(a) for a in self.args)})"

    def eval(self):
        return _value(self.obj)(*[_value(a) for a in self.args])


class UnaryOperator(Expr):
    priority = _UNARY

    def __init__(self, term, symbol, func):
        self.term = term
        self.symbol = symbol
        self.func = func

    def __str__(self):
        text = _repr(self.term)
        if isinstance(self.term, Expr) and self.term.priority < self.priority:
            text = f"({text})"
        return self.symbol + text

    def eval(self):
        return self.func(_value(self.term))


class BinaryOperator(Expr):
    def __init__(self, priority, lhs, rhs, symbol, func, right_assoc=False):
        self.priority = priority
        self.lhs = lhs
        self.rhs = rhs
        self.symbol = symbol
        self.func = func
        self.right_assoc = right_assoc

    def _side(self, term, is_left) -> str:
        text = _repr(term)
        if isinstance(term, Expr):
            same_needs_parens = self.right_assoc if is_left else not self.right_assoc
            if term.priority < self.priority or (term.priority == self.priority and same_needs_parens):
                text = f"({text})"
        return text

    def __str__(self):
        return f"{self._side(self.lhs, True)} {self.symbol} {self._side(self.rhs, False)}"

    def eval(self):
        return self.func(_value(self.lhs), _value(self.rhs))


class Comparison(BinaryOperator):
    """A comparison; ``expect`` raises InvalidType when it does not hold."""

    def __init__(self, lhs, rhs, symbol, inverse, func):
        super().__init__(_COMPARE, lhs, rhs, symbol, func)
        self.inverse = inverse

    def expect(self) -> None:
        left, right = _value(self.lhs), _value(self.rhs)
        if not self.func(left, right):
            raise InvalidType(str(self), f"{_repr(left)} {self.inverse} {_repr(right)}")


class TypeInfoTuple(tuple):
    """The tuple of per-input expressions handed to ``check_type_forward``; ``size()`` is its length."""

    name = "in_types"

    def size(self):
        return Variable(len(self), f"{self.name}.size()")


def get_types(data, name="in_types", accept_none=False):
    """A TypeInfoTuple describing the arrays in ``data`` (elements are ``name[i]`` expressions).

    With ``accept_none``, a None entry (e.g. a missing gradient) reads as shape () and dtype None.
    """
    info = TypeInfoTuple(
        Variable(TypeInfo((), None) if x is None and accept_none else TypeInfo(x.shape, x.dtype),
                 f"{name}[{i}]")
        for i, x in enumerate(data))
    info.name = name
    return info


def make_variable(value, name):
    """A named expression holding ``value``."""
    return Variable(value, name)


def expect(*bool_exprs) -> None:
    """Check each condition in order; raise InvalidType at the first that does not hold.

    Conditions are comparison expressions, or plain bools (checked as they are).
    """
    for cond in bool_exprs:
        if isinstance(cond, Comparison):
            cond.expect()
        elif isinstance(cond, (bool, numpy.bool_)):
            if not cond:
                raise InvalidType("True", "False")
        else:
            raise TypeError(f"type_check.expect: conditions must be comparisons of expressions "
                            f"(e.g. x_type.ndim == 2) or bools, got {_repr(cond)} "
                            f"({type(cond).__name__})")


def eval(exp):  # shadows the builtin on purpose (Chainer's name)
    """The value of an expression (anything else is returned as is)."""
    return _value(exp)


def argname(in_types, names) -> None:
    """Give ``in_types``' elements readable names (used in messages); checks the input count."""
    if len(in_types) != len(names):
        raise InvalidType(f"{len(names)} argument(s)", f"{len(in_types)} argument(s)",
                          f"Invalid number of arguments: expected {len(names)} "
                          f"({', '.join(names)}), got {len(in_types)}")
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


def same_types(*arrays) -> bool:
    """Whether the arrays are all NumPy arrays or all CuPy arrays."""
    if all(isinstance(x, numpy.ndarray) for x in arrays):
        return True
    return all(backend.is_gpu_array(x) for x in arrays)


def _prod_impl(xs):
    result = 1
    for x in xs:
        result *= x
    return result


def prod(xs):
    """An expression for the product of ``xs`` (e.g. ``prod(x_type.shape[1:])``)."""
    return Call(Variable(_prod_impl, "prod"), (xs,))


def expect_broadcast_shapes(*shape_types) -> None:
    """Raise InvalidType unless the given shapes (expressions or tuples) broadcast together."""
    shapes = [tuple(_value(s)) for s in shape_types]
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        lines = ["cannot broadcast inputs of the following shapes:"]
        lines += [f"{_repr(s)} = {shape}" for s, shape in zip(shape_types, shapes)]
        raise InvalidType("", "", "\n".join(lines)) from None


def _check_function_types(function_node, in_data) -> None:
    """Run ``function_node.check_type_forward`` on ``in_data``'s types (called by FunctionNode.apply)."""
    in_types = get_types(in_data, "in_types")
    try:
        function_node.check_type_forward(in_types)
    except InvalidType as e:
        raise InvalidType(e.expect, e.actual,
                          f"Invalid operation is performed in: {function_node.label} (Forward)\n\n"
                          f"{e.body}") from None
