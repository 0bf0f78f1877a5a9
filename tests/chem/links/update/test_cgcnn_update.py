"""CGCNNUpdate against a NumPy reference in test and train mode, its input checks and gradient checks."""
import numpy
import pytest

import kusari
from kusari import gradient_check
from kusari.chem.links import CGCNNUpdate

N_SITE, N_NBR, N_FEAT, N_NBR_FEAT = 5, 3, 4, 2


def inputs(dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    sites = rng.standard_normal((N_SITE, N_FEAT)).astype(dtype)
    bonds = rng.uniform(0, 1, (N_SITE, N_NBR, N_NBR_FEAT)).astype(dtype)
    nbr_idx = rng.randint(0, N_SITE, (N_SITE, N_NBR)).astype(numpy.int32)
    return sites, bonds, nbr_idx


def randomized(dtype, seed=1):
    """A CGCNNUpdate with every parameter and running statistic drawn at random."""
    rng = numpy.random.RandomState(seed)
    with kusari.using_config("dtype", dtype):
        link = CGCNNUpdate(N_FEAT)
        link.fc.W.initialize((2 * N_FEAT, 2 * N_FEAT + N_NBR_FEAT))
    for _, p in sorted(link.namedparams()):
        p.array = rng.uniform(-1, 1, p.shape).astype(dtype)
    for bn in (link.bn1, link.bn2):
        bn.avg_mean = rng.uniform(-0.5, 0.5, bn.avg_mean.shape).astype(dtype)
        bn.avg_var = rng.uniform(0.5, 2, bn.avg_var.shape).astype(dtype)
    return link


def softplus(x):
    return numpy.logaddexp(0, x)


def reference(link, sites, bonds, nbr_idx, train):
    def bn(x, layer):
        mean, var = (x.mean(0), x.var(0)) if train else (layer.avg_mean, layer.avg_var)
        return (x - mean) / numpy.sqrt(var + layer.eps) * layer.gamma.array + layer.beta.array

    pair = numpy.concatenate([numpy.broadcast_to(sites[:, None], (N_SITE, N_NBR, N_FEAT)),
                              sites[nbr_idx], bonds], axis=2).reshape(N_SITE * N_NBR, -1)
    h = bn(pair @ link.fc.W.array.T + link.fc.b.array, link.bn1).reshape(N_SITE, N_NBR, -1)
    gate, core = h[..., :N_FEAT], h[..., N_FEAT:]
    message = (1 / (1 + numpy.exp(-gate)) * softplus(core)).sum(axis=1)
    return softplus(sites + bn(message, link.bn2))


@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_math(dtype, train):
    sites, bonds, nbr_idx = inputs(dtype)
    link = randomized(dtype)
    expected = reference(link, sites, bonds, nbr_idx, train)
    with kusari.using_config("train", train):
        y = link(sites, bonds, nbr_idx)
    assert y.dtype == dtype and y.shape == (N_SITE, N_FEAT)
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == numpy.float32 else dict(rtol=1e-10, atol=1e-10)
    numpy.testing.assert_allclose(y.array, expected, **tol)


@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_gradient_check(dtype, train):
    sites, bonds, nbr_idx = inputs(dtype)
    link = randomized(dtype)
    params = tuple(p for _, p in sorted(link.namedparams()))
    rng = numpy.random.RandomState(2)
    gy = rng.standard_normal((N_SITE, N_FEAT)).astype(dtype)
    gg = tuple(rng.standard_normal(x.shape).astype(dtype) for x in (sites, bonds))
    ggparams = tuple(rng.standard_normal(p.shape).astype(dtype) for p in params)

    def f(sites, bonds):
        return link(sites, bonds, nbr_idx)

    if dtype == numpy.float32 and not train:
        # the float64 evaluation would cast the parameters but not the float32 running statistics
        tol = dict(eps=1e-2, atol=1e-2, rtol=1e-2)
    else:
        tol = dict(atol=1e-3, rtol=1e-3, dtype=numpy.float64)
    with kusari.using_config("train", train):
        gradient_check.check_backward(f, (sites, bonds), gy, params=params, **tol)
        gradient_check.check_double_backward(f, (sites, bonds), gy, gg, params=params,
                                             params_grad_grad=ggparams, **tol)


def test_bad_inputs():
    sites, bonds, nbr_idx = inputs(numpy.float32)
    link = CGCNNUpdate(N_FEAT)
    with pytest.raises(ValueError, match=r"CGCNNUpdate: expected site_feat \(n_site, n_feat\).*"
                                         r"nbr_feat.shape=\(4, 3, 2\)"):
        link(sites, bonds[:4], nbr_idx[:4])
    with pytest.raises(ValueError, match=r"CGCNNUpdate: .*nbr_idx.shape=\(5, 2\)"):
        link(sites, bonds, nbr_idx[:, :2])
    with pytest.raises(TypeError, match="CGCNNUpdate: nbr_idx must hold integer row indices, "
                                        "got dtype float32"):
        link(sites, bonds, nbr_idx.astype(numpy.float32))
    with pytest.raises(ValueError, match=r"CGCNNUpdate: nbr_idx must index the 5 sites \(0 .. 4\), "
                                         r"got values from 0 to 5"):
        link(sites, bonds, numpy.where(nbr_idx == nbr_idx.max(), 5, nbr_idx))
    with pytest.raises(ValueError, match=r"CGCNNUpdate: site_feat has 4 features but "
                                         r"n_site_features is 6"):
        CGCNNUpdate(6)(sites, bonds, nbr_idx)
