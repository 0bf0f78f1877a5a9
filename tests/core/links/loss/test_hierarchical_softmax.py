import math

import numpy
import pytest

import kusari
import kusari.links as L
from kusari import gradient_check

TREE = ((0, (3, 1)), (2, (4, 5)))  # internal nodes in preorder: root 0, (0,(3,1)) 1, (3,1) 2, ...


def _reference_paths(tree):
    """{word: [(node, code)]} by recursion, numbering internal nodes in preorder; left is +1."""
    out, counter = {}, [0]

    def walk(node, path):
        if isinstance(node, tuple):
            me = counter[0]
            counter[0] += 1
            walk(node[0], path + [(me, 1.0)])
            walk(node[1], path + [(me, -1.0)])
        else:
            out[node] = path
    walk(tree, [])
    return out


def _reference_nll(W, x, word, tree):
    return sum(math.log1p(math.exp(-code * float(W[node] @ x))) for node, code in _reference_paths(tree)[word])


def _link(dtype=numpy.float64, seed=0):
    numpy.random.seed(seed)
    link = L.BinaryHierarchicalSoftmax(3, TREE, dtype=dtype)
    return link


def test_parameters_and_preorder_numbering():
    link = _link()
    assert link.W.shape == (5, 3) and link.W.dtype == numpy.float64  # 6 words, 5 internal nodes
    assert numpy.abs(link.W.array).max() <= 1
    assert _reference_paths(TREE)[1] == [(0, 1.0), (1, -1.0), (2, -1.0)]


def test_loss_is_the_sum_of_path_log_sigmoids():
    link = _link()
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((4, 3))
    t = numpy.array([1, 5, 0, 1], numpy.int32)
    loss = link(x, t)
    assert loss.shape == () and loss.dtype == numpy.float64
    expected = sum(_reference_nll(link.W.array, xi, int(ti), TREE) for xi, ti in zip(x, t))
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-12)


def test_word_probabilities_sum_to_one():
    link = _link()
    x = numpy.random.default_rng(2).standard_normal((1, 3))
    probs = [math.exp(-float(link(x, numpy.array([w], numpy.int32)).array)) for w in range(6)]
    assert sum(probs) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_backward(dtype, check_link_backward):
    link = _link(dtype)
    x = numpy.random.default_rng(3).standard_normal((4, 3)).astype(dtype)
    t = numpy.array([1, 5, 2, 4], numpy.int32)
    check_link_backward(link, (x, t), dtype=dtype)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_double_backward(dtype):
    link = _link(dtype)
    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((3, 3)).astype(dtype)
    t = numpy.array([3, 0, 5], numpy.int32)
    opts = {"atol": 1e-4, "rtol": 1e-3} if dtype == numpy.float64 else {"atol": 5e-3, "rtol": 5e-2}
    gradient_check.check_double_backward(lambda x: link(x, t), (x,), numpy.array(0.7, dtype),
                                         rng.standard_normal((3, 3)).astype(dtype), params=(link.W,),
                                         params_grad_grad=(rng.standard_normal((5, 3)).astype(dtype),),
                                         dtype=numpy.float64, **opts)


def test_float32_stays_float32():
    link = _link(numpy.float32)
    x = numpy.ones((2, 3), numpy.float32)
    loss = link(x, numpy.array([0, 4], numpy.int32))
    loss.backward()
    assert loss.dtype == numpy.float32 and link.W.grad.dtype == numpy.float32


def test_create_huffman_tree_matches_chainer():
    # The example of Chainer's documentation for the same method.
    assert L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 8, 1: 5, 2: 6, 3: 4}) == ((3, 1), (2, 0))
    assert L.BinaryHierarchicalSoftmax.create_huffman_tree({7: 1}) == 7
    with pytest.raises(ValueError, match="word_counts is empty"):
        L.BinaryHierarchicalSoftmax.create_huffman_tree({})


def test_huffman_tree_gives_frequent_words_short_paths():
    counts = {0: 100, 1: 1, 2: 1, 3: 2, 4: 50}
    paths = _reference_paths(L.BinaryHierarchicalSoftmax.create_huffman_tree(counts))
    assert len(paths[0]) < len(paths[1]) and sorted(paths) == [0, 1, 2, 3, 4]


def test_sample_follows_the_word_probabilities():
    link = _link()
    x = numpy.random.default_rng(5).standard_normal((1, 3))
    probs = numpy.array([math.exp(-float(link(x, numpy.array([w], numpy.int32)).array)) for w in range(6)])
    numpy.random.seed(6)
    draws = link.sample(numpy.repeat(x, 20000, axis=0))
    assert draws.dtype == numpy.int32 and draws.shape == (20000,)
    numpy.testing.assert_allclose(numpy.bincount(draws, minlength=6) / 20000, probs, atol=0.015)


def test_one_word_tree_has_probability_one():
    link = L.BinaryHierarchicalSoftmax(2, 0)
    x = kusari.Variable(numpy.ones((3, 2), numpy.float32))
    loss = link(x, numpy.zeros(3, numpy.int32))
    assert float(loss.array) == 0.0 and link.W.shape == (0, 2)
    assert (link.sample(x.array) == 0).all()


def test_errors_name_the_argument():
    link = _link(numpy.float32)
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"not leaves of the tree: \[6, 9\]"):
        link(x, numpy.array([9, 6], numpy.int32))
    with pytest.raises(ValueError, match=r"not leaves of the tree: \[-1\]"):
        link(x, numpy.array([0, -1], numpy.int32))
    with pytest.raises(ValueError, match=r"x must have shape \(N, 3\), got x.shape=\(2, 4\)"):
        link(numpy.ones((2, 4), numpy.float32), numpy.array([0, 1], numpy.int32))
    with pytest.raises(TypeError, match="x.dtype=float64 must equal W.dtype=float32"):
        link(numpy.ones((2, 3)), numpy.array([0, 1], numpy.int32))
    with pytest.raises(ValueError, match=r"t must be int word ids of shape \(2,\)"):
        link(x, numpy.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="must be a pair"):
        L.BinaryHierarchicalSoftmax(3, ((0, 1, 2), 3))
    with pytest.raises(ValueError, match="word 1 appears twice"):
        L.BinaryHierarchicalSoftmax(3, ((0, 1), 1))
    with pytest.raises(ValueError, match="non-negative int word ids"):
        L.BinaryHierarchicalSoftmax(3, ((0, "a"), 1))
