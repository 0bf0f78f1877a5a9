import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import computational_graph as c


def _graph():
    x = kusari.Variable(numpy.ones((2, 3), numpy.float32), name="x")
    h = F.exp(x)
    y = F.sum(h * x)
    return x, y


def test_graph_contains_every_node_and_edge():
    x, y = _graph()
    g = c.build_computational_graph([y])
    labels = sorted(n.label for n in g.nodes if isinstance(n, kusari.FunctionNode))
    assert labels == ["Exp", "Sum", "_ * _"]  # the product carries Chainer's label
    assert len([n for n in g.nodes if isinstance(n, kusari.VariableNode)]) == 4
    assert len(g.edges) == 7  # x->Exp, Exp->h, h->Mul, x->Mul, Mul->hx, hx->Sum, Sum->y


def test_dot_output_names_variables_and_functions():
    x, y = _graph()
    dot = c.build_computational_graph([y]).dump()
    assert dot.startswith("digraph graphname{") and dot.endswith("}")
    assert 'label="x: (2, 3), float32"' in dot
    assert 'label="Exp"' in dot
    assert dot.count("->") == 7


def test_remove_variable_keeps_function_edges():
    _, y = _graph()
    g = c.build_computational_graph([y], remove_variable=True)
    assert all(isinstance(n, kusari.FunctionNode) for n in g.nodes)
    names = {(a.label, b.label) for a, b in g.edges}
    assert names == {("Exp", "_ * _"), ("_ * _", "Sum")}


def test_bad_rankdir():
    _, y = _graph()
    with pytest.raises(ValueError, match="rankdir"):
        c.build_computational_graph([y], rankdir="XX")
