"""kusari.cudnn's batch normalization: the cases it declines (CPU), and cuDNN against CuPy's kernels (GPU)."""
import numpy
import pytest

import kusari
from kusari import cudnn
from kusari.cudnn import batch_normalization as cudnn_bn


@pytest.mark.parametrize("shape, eps", [((2, 3, 4, 4, 4), 2e-5), ((1, 3, 1, 1), 2e-5), ((1, 3), 2e-5),
                                        ((8, 3, 4, 4), 1e-6)])
def test_cases_cudnn_declines_are_refused_before_any_graph(shape, eps):
    # five axes, one value per channel, eps below CUDNN_BN_MIN_EPSILON: no frontend call (lib=None)
    assert not cudnn_bn.supports_training(None, numpy.zeros(shape, numpy.float32), eps)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(8, 3, 5, 5), (16, 4), (4, 2, 7)])
def test_cudnn_batch_normalization_matches_cupy_kernels(shape):
    import cupy
    if not cudnn.available():
        pytest.skip("nvidia-cudnn-frontend is not installed")
    rng = numpy.random.default_rng(0)
    x = (rng.standard_normal(shape) * 2 + 1).astype(numpy.float32)
    gamma, beta = (rng.standard_normal(shape[1]).astype(numpy.float32) for _ in range(2))
    gy = rng.standard_normal(shape).astype(numpy.float32)
    results = {}
    for mode in ("never", "always"):
        with kusari.using_config("use_cudnn", mode):
            xv, gv, bv = (kusari.Variable(cupy.asarray(a)) for a in (x, gamma, beta))
            mean, var = cupy.zeros(shape[1], numpy.float32), cupy.ones(shape[1], numpy.float32)
            y = kusari.functions.batch_normalization(xv, gv, bv, running_mean=mean, running_var=var)
            y.grad = cupy.asarray(gy)
            y.backward()
            fixed = kusari.functions.fixed_batch_normalization(cupy.asarray(x), cupy.asarray(gamma),
                                                               cupy.asarray(beta), mean, var)
            results[mode] = [a.get() for a in (y.array, xv.grad, gv.grad, bv.grad, mean, var, fixed.array)]
    for ref, got in zip(results["never"], results["always"]):
        numpy.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


@pytest.mark.gpu
def test_cudnn_batch_normalization_under_mixed16_matches_cupy_kernels():
    import cupy
    if not cudnn.available():
        pytest.skip("nvidia-cudnn-frontend is not installed")
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((8, 4, 6, 6)).astype(numpy.float16)
    gamma, beta = (rng.standard_normal(4).astype(numpy.float32) for _ in range(2))
    results = {}
    for mode in ("never", "always"):
        with kusari.using_config("use_cudnn", mode):
            xv, gv = kusari.Variable(cupy.asarray(x)), kusari.Variable(cupy.asarray(gamma))
            y = kusari.functions.batch_normalization(xv, gv, cupy.asarray(beta))
            assert y.dtype == numpy.float16
            y.grad = cupy.ones(y.shape, numpy.float16)
            y.backward()
            results[mode] = [a.get().astype(numpy.float32) for a in (y.array, xv.grad, gv.grad)]
    for ref, got in zip(results["never"], results["always"]):
        numpy.testing.assert_allclose(got, ref, rtol=1e-2, atol=1e-2)
