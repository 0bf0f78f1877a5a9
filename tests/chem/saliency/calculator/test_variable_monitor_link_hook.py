"""VariableMonitorLinkHook records a link's input or output and lets processes rewrite it."""
import kusari
import numpy
import pytest
from kusari import links as L
from kusari.chem.saliency.calculator import VariableMonitorLinkHook


class Model(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 2, initialW=numpy.eye(2, dtype=numpy.float32))
            self.l2 = L.Linear(2, 1, initialW=numpy.ones((1, 2), numpy.float32))

    def forward(self, x):
        return self.l2(self.l1(x))


X = numpy.array([[1.0, 2.0]], numpy.float32)


def test_post_records_the_output_and_pre_the_input():
    model = Model()
    post = VariableMonitorLinkHook(model.l1)
    pre = VariableMonitorLinkHook(model.l2, name="pre", timing="pre")
    with post, pre:
        model(X)
    numpy.testing.assert_array_equal(post.get_variable().array, X)  # l1 is the identity plus a 0 bias
    assert pre.get_variable() is post.get_variable()


def test_process_rewrites_the_variable_before_the_rest_of_the_forward():
    model = Model()
    hook = VariableMonitorLinkHook(model.l1)

    def zero(hook, args, target):
        target.array = numpy.zeros_like(target.array)

    hook.add_process("zero", zero)
    model.l1.add_hook(hook)
    assert model(X).array.item() == 0.0
    hook.delete_process("zero")
    assert model(X).array.item() == 3.0


def test_argument_checks():
    with pytest.raises(TypeError, match="target_link"):
        VariableMonitorLinkHook(object())
    with pytest.raises(ValueError, match="timing"):
        VariableMonitorLinkHook(L.Linear(1, 1), timing="during")
    hook = VariableMonitorLinkHook(L.Linear(1, 1))
    with pytest.raises(TypeError, match="callable"):
        hook.add_process("x", 1)
    with pytest.raises(TypeError, match="key"):
        hook.add_process(1, print)
