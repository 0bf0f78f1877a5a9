import numpy
import pytest

import kusari
from kusari.utils import type_check


class _Linear(kusari.FunctionNode):
    """A node declaring Chainer-style input conditions."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ("x", "W"))
        x_type, w_type = in_types
        type_check.expect(
            in_types.size() == 2,
            x_type.dtype.kind == "f",
            x_type.dtype == w_type.dtype,
            x_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )

    def forward(self, inputs):
        x, w = inputs
        return x @ w.T,


class _OldStyle(kusari.Function):
    def check_type_forward(self, in_types):
        type_check.expect(in_types[0].dtype == numpy.float32,
                          type_check.prod(in_types[0].shape) == 6)

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * 2,


def _f32(*shape):
    return numpy.ones(shape, numpy.float32)


def test_valid_inputs_pass():
    y, = _Linear().apply((_f32(2, 3), _f32(4, 3)))
    assert y.shape == (2, 4)


def test_failure_names_function_condition_and_values():
    with pytest.raises(type_check.InvalidType) as e:
        _Linear().apply((_f32(2, 3), _f32(4, 5)))
    msg = str(e.value)
    assert "Invalid operation is performed in: _Linear (Forward)" in msg
    assert "Expect: x.shape[1] == W.shape[1]" in msg
    assert "Actual: 3 != 5" in msg
    assert e.value.expect == "x.shape[1] == W.shape[1]"


def test_dtype_conditions():
    with pytest.raises(type_check.InvalidType, match=r"Expect: x.dtype.kind == 'f'\nActual: 'i' != 'f'"):
        _Linear().apply((numpy.ones((2, 3), numpy.int32), _f32(4, 3)))
    with pytest.raises(type_check.InvalidType, match="Actual: float32 != float64"):
        _Linear().apply((_f32(2, 3), numpy.ones((4, 3))))


def test_argname_checks_the_number_of_inputs():
    msg = r"Invalid number of arguments: expected 2 \(x, W\), got 3"
    with pytest.raises(type_check.InvalidType, match=msg):
        _Linear().apply((_f32(2, 3), _f32(4, 3), _f32(1)))


def test_old_style_function_is_checked():
    x = kusari.Variable(_f32(2, 3))
    y = _OldStyle()(x)
    numpy.testing.assert_array_equal(y.array, 2 * x.array)
    msg = r"_OldStyle \(Forward\)[\s\S]*Expect: in_types\[0\].dtype == numpy.float32"
    with pytest.raises(type_check.InvalidType, match=msg):
        _OldStyle()(numpy.ones((2, 3)))
    msg = r"Expect: prod\(in_types\[0\].shape\) == 6\nActual: 8 != 6"
    with pytest.raises(type_check.InvalidType, match=msg):
        _OldStyle()(_f32(2, 4))


def test_type_check_config_off_skips_checks():
    with kusari.using_config("type_check", False):
        _Linear().apply((_f32(2, 3), _f32(4, 3)))
        with pytest.raises(ValueError):  # NumPy's own error: the DSL did not run
            _Linear().apply((_f32(2, 3), _f32(4, 5)))


def test_expression_values_and_rendering():
    x = type_check.Variable(3, "x")
    y = type_check.Variable(4, "y")
    cases = [
        (x + y * 2, "x + y * 2", 11), ((x + y) * 2, "(x + y) * 2", 14), (x - (y - 1), "x - (y - 1)", 0),
        (x - y - 1, "x - y - 1", -2), (-x ** 2, "-x ** 2", -9), ((-x) ** 2, "(-x) ** 2", 9),
        (2 ** x, "2 ** x", 8), (y // x % 2, "y // x % 2", 1), (y / 2, "y / 2", 2.0),
        (x & 1 | y, "x & 1 | y", 5), (x << 1, "x << 1", 6),
    ]
    for expr, text, value in cases:
        assert str(expr) == text
        assert type_check.eval(expr) == value
    assert type_check.eval(5) == 5


def test_shape_slicing_and_attributes():
    t = type_check.get_types((_f32(2, 3, 4),))[0]
    assert str(t.shape[1:]) == "in_types[0].shape[1:]"
    assert type_check.eval(t.shape[1:]) == (3, 4)
    assert type_check.eval(t.shape[-1]) == 4
    assert type_check.eval(t.size) == 24
    assert type_check.eval(t.dtype) == numpy.float32
    type_check.expect(t.ndim >= 3, t.shape[0] != 3, t.shape[0] < t.shape[2], numpy.float32 == t.dtype)


def test_comparisons_with_numpy_scalars_on_the_left():
    t = type_check.get_types((_f32(2, 3),))[0]
    type_check.expect(numpy.int64(2) == t.shape[0])
    with pytest.raises(type_check.InvalidType, match=r"Actual: 3 >= 3"):
        type_check.expect(numpy.int64(3) > t.shape[1])


def test_expressions_refuse_to_be_bools():
    x = type_check.Variable(1, "x")
    with pytest.raises(RuntimeError, match="cannot use the expression 'x == 1' as a bool"):
        if x == 1:
            pass


def test_expect_accepts_plain_bools_and_rejects_non_conditions():
    type_check.expect(True, numpy.bool_(True))
    with pytest.raises(type_check.InvalidType):
        type_check.expect(False)
    with pytest.raises(TypeError, match="type_check.expect: conditions must be comparisons"):
        type_check.expect(type_check.Variable(1, "x") + 1)


def test_expect_broadcast_shapes():
    a, b = type_check.get_types((_f32(2, 1, 3), _f32(4, 3)))
    type_check.expect_broadcast_shapes(a.shape, b.shape)
    c, = type_check.get_types((_f32(2, 2),))
    msg = r"cannot broadcast[\s\S]*in_types\[0\].shape = \(2, 2\)"
    with pytest.raises(type_check.InvalidType, match=msg):
        type_check.expect_broadcast_shapes(a.shape, c.shape)


def test_same_types():
    assert type_check.same_types(_f32(1), _f32(2))
    assert not type_check.same_types(_f32(1), [1.0])


def test_invalid_type_outside_a_function():
    with pytest.raises(type_check.InvalidType, match=r"^Expect: x == 2\nActual: 1 != 2$"):
        type_check.expect(type_check.make_variable(1, "x") == 2)


def test_invalid_type_pickles():
    import pickle
    e = pickle.loads(pickle.dumps(type_check.InvalidType("x == 1", "2 != 1")))
    assert (e.expect, e.actual, str(e)) == ("x == 1", "2 != 1", "Expect: x == 1\nActual: 2 != 1")


def test_get_types_accept_none():
    t = type_check.get_types((None, _f32(2)), "grads", accept_none=True)
    type_check.expect(t[0].dtype == None, t[0].ndim == 0, t[1].shape[0] == 2)  # NOQA: E711
    assert str(t[1].shape) == "grads[1].shape"


def test_invalid_type_from_a_message_alone():
    """``type(e)(message)``, the way code re-raises an error with more context, works for InvalidType too."""
    import pickle
    try:
        raise type_check.InvalidType("x.ndim == 2", "3 != 2")
    except ValueError as e:
        again = type(e)(f"linear: {e}")
    assert isinstance(again, type_check.InvalidType)
    assert str(again) == "linear: Expect: x.ndim == 2\nActual: 3 != 2"
    assert str(pickle.loads(pickle.dumps(again))) == str(again)
