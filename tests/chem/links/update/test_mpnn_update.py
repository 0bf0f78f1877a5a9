"""EdgeNet's reassociated path for an MLP edge network against its general path, and gradient checks.

EdgeNet builds the (ch, ch) matrix of every node pair unless its network is a
``kusari.chem.models.MLP``; then it contracts the MLP's hidden output with h before the last
Linear. ``PlainMLP`` (a subclass, so the general path) computes the same network, so both paths
run on the same weights and inputs here.
"""
import numpy
import pytest

import kusari
from kusari import functions as F
from kusari import gradient_check
from kusari.chem.links import EdgeNet, MPNNUpdate
from kusari.chem.models import MLP


class PlainMLP(MLP):
    """The same network as MLP; EdgeNet recognizes only MLP itself, so this takes the general path."""


def pair(ch, dtype, pairing="atom_pair", **mlp_kwargs):
    """Two EdgeNets, reassociated and general, on the same network (weights drawn in run)."""
    with kusari.using_config("dtype", dtype):
        return [EdgeNet(ch, nn=cls(out_dim=ch * ch, **mlp_kwargs), pairing=pairing)
                for cls in (MLP, PlainMLP)]


def run(net, h, adj, gy, dtype):
    """y, gh, gadj and every parameter gradient of sum(y * gy), from a net's first call."""
    hv, adjv = kusari.Variable(h.copy()), kusari.Variable(adj.copy())
    numpy.random.seed(0)
    with kusari.using_config("dtype", dtype):  # the lazy Linears draw their weights now
        y = net(hv, adjv)
    net.cleargrads()
    F.sum(y * gy).backward()
    return y, hv.grad, adjv.grad, {path: p.grad for path, p in net.namedparams()}


def inputs(mb, node, ch, edge_types, dtype, binary=True, seed=1):
    rng = numpy.random.RandomState(seed)
    h = rng.standard_normal((mb, node, ch)).astype(dtype)
    adj = rng.uniform(size=(mb, edge_types, node, node))
    adj = (adj > 0.6) if binary else adj
    gy = rng.standard_normal((mb, node, 2 * ch)).astype(dtype)
    return h, adj.astype(dtype), gy


def test_edgenet_takes_the_reassociated_path_only_for_an_mlp():
    assert EdgeNet(3)._factored
    assert EdgeNet(3, nn=MLP(9, hidden_dim=4, n_layers=3))._factored
    assert not EdgeNet(3, nn=PlainMLP(9))._factored
    assert not EdgeNet(3, nn=kusari.links.Linear(None, 9))._factored


@pytest.mark.parametrize("pairing", ["atom_pair", "bonds", "chainer_chemistry"])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("mlp_kwargs, binary", [
    ({}, True),                                           # the default edge network
    ({}, False),                                          # real-valued edges
    (dict(hidden_dim=5, n_layers=3, activation=F.tanh), False),
    (dict(n_layers=1), True),                             # no hidden layer: z is the edge vector
])
def test_reassociated_path_equals_the_general_path(pairing, dtype, mlp_kwargs, binary):
    mb, node, ch, edge_types = 3, 5, 4, 4
    h, adj, gy = inputs(mb, node, ch, edge_types, dtype, binary)
    fast, general = pair(ch, dtype, pairing, **mlp_kwargs)
    y, gh, gadj, grads = run(fast, h, adj, gy, dtype)
    y_ref, gh_ref, gadj_ref, grads_ref = run(general, h, adj, gy, dtype)
    # the lazy parameters are drawn in the same order on both paths
    for (path, p), (_, q) in zip(sorted(fast.namedparams()), sorted(general.namedparams())):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=path)
    assert y.dtype == dtype and y.shape == (mb, node, 2 * ch)
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == numpy.float32 else dict(rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(y.array, y_ref.array, **tol)
    numpy.testing.assert_allclose(gh, gh_ref, **tol)
    numpy.testing.assert_allclose(gadj, gadj_ref, **tol)
    assert sorted(grads) == sorted(grads_ref)
    for path in grads:
        assert grads[path].dtype == dtype
        numpy.testing.assert_allclose(grads[path], grads_ref[path], err_msg=path, **tol)


@pytest.mark.parametrize("pairing", ["atom_pair", "bonds"])
def test_messages_pair_each_atom_pair_with_its_own_edge_vector(pairing):
    """Against a loop over atom pairs: m_i = sum_j nn(adj[:, :, i, j]) h_j (bonded j only for
    'bonds'), and the outgoing message from adj's transpose."""
    mb, node, ch, edge_types = 2, 4, 3, 4
    h, adj, _ = inputs(mb, node, ch, edge_types, numpy.float64)
    adj[:, :, 0, :] = 0   # atom 0 has no bonds of its own
    with kusari.using_config("dtype", numpy.float64):
        net = EdgeNet(ch, nn=MLP(out_dim=ch * ch, hidden_dim=5), pairing=pairing)
        y = net(h, adj).array
    expected = numpy.zeros((mb, node, 2 * ch))
    for b in range(mb):
        for i in range(node):
            for j in range(node):
                for half, e in enumerate((adj[b, :, i, j], adj[b, :, j, i])):
                    if pairing == "bonds" and not e.any():
                        continue
                    a = net.nn_layer_in(e[None]).array.reshape(ch, ch)
                    expected[b, i, half * ch:(half + 1) * ch] += a @ h[b, j]
    numpy.testing.assert_allclose(y, expected, rtol=1e-10, atol=1e-12)


def test_bonds_gradient_check():
    mb, node, ch, edge_types = 2, 3, 2, 4
    h, adj, gy = inputs(mb, node, ch, edge_types, numpy.float64)
    with kusari.using_config("dtype", numpy.float64):
        net = EdgeNet(ch, nn=MLP(out_dim=ch * ch, hidden_dim=3), pairing="bonds")
        net(h, adj)
    params = _params_for_check(net, numpy.float64)
    # the adjacency is data (which pairs are bonded changes under its perturbation)
    gradient_check.check_backward(net, (h, adj), gy, params=params, no_grads=(False, True),
                                  atol=1e-4, rtol=1e-4)


def test_mpnn_update_paths_agree_over_steps():
    """Four GRU steps on the reassociated and general messages, as MPNN runs them."""
    mb, node, ch, edge_types = 2, 6, 8, 4
    h, adj, _ = inputs(mb, node, ch, edge_types, numpy.float32)
    outs = []
    for cls in (MLP, PlainMLP):
        numpy.random.seed(0)  # the GRU's weights now, the lazy edge network's in the first step
        update = MPNNUpdate(hidden_channels=ch, nn=cls(out_dim=ch * ch, hidden_dim=16))
        hv = kusari.Variable(h.copy())
        x = hv
        for _ in range(4):
            x = update(x, adj)
        F.sum(x * x).backward()
        outs.append((x.array, hv.grad))
    numpy.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-4, atol=1e-5)


def _params_for_check(net, dtype, seed=2):
    """The edge network's parameters (listed once: nn_layer_in and nn_layer_out share them), set
    to random values, biases included (keeping ReLU away from its kink at the all-zero edge)."""
    rng = numpy.random.RandomState(seed)
    params = tuple(p for _, p in sorted(net.nn_layer_in.namedparams()))
    for p in params:
        p.array = rng.uniform(-1, 1, p.shape).astype(dtype)
    return params


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_reassociated_path_gradient_check(dtype):
    mb, node, ch, edge_types = 2, 3, 2, 4
    h, adj, gy = inputs(mb, node, ch, edge_types, dtype, binary=False)
    with kusari.using_config("dtype", dtype):
        net = EdgeNet(ch, nn=MLP(out_dim=ch * ch, hidden_dim=3))
        net(h, adj)  # creates the lazy weights
    params = _params_for_check(net, dtype)
    rng = numpy.random.RandomState(3)
    ggh = rng.standard_normal(h.shape).astype(dtype)
    ggadj = rng.standard_normal(adj.shape).astype(dtype)
    ggparams = tuple(rng.standard_normal(p.shape).astype(dtype) for p in params)
    tol = dict(atol=1e-3, rtol=1e-3, dtype=numpy.float64)
    gradient_check.check_backward(net, (h, adj), gy, params=params, **tol)
    gradient_check.check_double_backward(net, (h, adj), gy, (ggh, ggadj), params=params,
                                         params_grad_grad=ggparams, **tol)


def test_reassociated_path_checks_the_edge_network_width():
    net = EdgeNet(3, nn=MLP(out_dim=8))
    h, adj, _ = inputs(2, 4, 3, 4, numpy.float32)
    with pytest.raises(ValueError, match=r"EdgeNet: nn must output out_channels \*\* 2 = 9 .* "
                                         r"out_size=8"):
        net(h, adj)
