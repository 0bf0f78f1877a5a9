"""The fused CUDA kernels: every source compiles with nvcc (CPU), and each equals its NumPy twin (GPU)."""
import ctypes
import re
import shutil
import subprocess

import numpy
import pytest

import kusari
from kusari import _cuda_kernels
from kusari.functions.activation import relu, sigmoid, tanh
from kusari.functions.loss import softmax_cross_entropy as sce
from kusari.functions.normalization import _standardize
from kusari.functions.pooling import _window
from kusari.optimizers import _fused

KERNEL_MODULES = (relu, sigmoid, tanh, sce, _standardize, _window, _fused)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc (the CUDA toolkit) is not installed")
def test_every_kernel_compiles_with_nvcc(tmp_path):
    kernels = _cuda_kernels.registered()
    names = {k.name for k in kernels}
    assert {"kusari_relu_fwd", "kusari_relu_grad", "kusari_sigmoid_fwd", "kusari_sigmoid_grad",
            "kusari_tanh_grad", "kusari_softmax_rows_float", "kusari_softmax_ce_grad",
            "kusari_channel_stats_double", "kusari_fused_adam_float",
            "kusari_fused_momentum_sgd_double", "kusari_max_pool_2d_float",
            "kusari_max_pool_2d_grad_double"} <= names
    source = tmp_path / "kernels.cu"
    source.write_text(_cuda_kernels.translation_unit())
    run = subprocess.run(["nvcc", "--ptx", "-arch=compute_80", str(source), "-o", str(tmp_path / "k.ptx")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    entries = re.findall(r"\.entry (\w+)\(", (tmp_path / "k.ptx").read_text())
    for k in kernels:   # each kernel is in the PTX (templated ones once per float and double)
        assert any(k.name in e for e in entries), k.name


def test_malformed_kernel_definitions_are_refused_at_definition():
    with pytest.raises(ValueError, match="kernel 'bad' has a malformed parameter 'T'"):
        _cuda_kernels.Elementwise("bad", "T", "T y", "y = 0")
    with pytest.raises(ValueError, match="kernel 'k2' defines no function k2"):
        _cuda_kernels.Raw("k2", 'extern "C" __global__ void k3(float* x) {}')


def test_elementwise_source_reads_inputs_and_binds_outputs_by_reference():
    kernel = _cuda_kernels.Elementwise("k_demo", "T x, raw int32 idx", "T y", "y = x + idx[0]")
    try:
        src = kernel.cuda_source()
        assert "const T x = _raw_x[i];" in src and "T& y = _raw_y[i];" in src
        assert "const int* idx" in src
        assert "k_demo<float>(const float*, const int*, float*, long long)" in src
    finally:
        _cuda_kernels._REGISTRY.remove(kernel)


def test_block_count_caps_the_grid():
    assert _cuda_kernels.block_count(1) == 1 and _cuda_kernels.block_count(257, 256) == 2
    assert _cuda_kernels.block_count(10 ** 12) == 65535


def test_fused_optimizer_path_leaves_cpu_parameters_to_their_rules():
    link = kusari.links.Linear(3, 2)
    opt = kusari.optimizers.Adam().setup(link)
    link.W.grad = numpy.ones_like(link.W.array)
    link.b.grad = numpy.ones_like(link.b.array)
    params = list(link.params())
    rest = _fused.adam_update(opt, params)
    assert len(rest) == len(params) and all(a is b for a, b in zip(rest, params))
    assert all(p.update_rule is None or p.update_rule.t == 0 for p in params)   # nothing stepped
    opt.update()
    assert all(p.update_rule.t == 1 for p in params)


# ---- the RawKernels run on the CPU, one thread per block, compiled by g++: their arithmetic and
# indexing against NumPy, before any GPU sees them

_EMULATION = r"""
#include <algorithm>
#include <cmath>
#include <cstring>
using std::exp; using std::fmax; using std::isnan; using std::log; using std::max; using std::min; using std::sqrt;
struct Dim { unsigned x; };
extern "C" { Dim blockIdx = {0}, threadIdx = {0}, blockDim = {1}, gridDim = {1}; }
unsigned char _buf[1 << 16];   // what `extern __shared__` names: one thread's worth suffices
#define __global__
#define __shared__
#define __syncthreads()
static inline float __int_as_float(unsigned v) { float f; std::memcpy(&f, &v, 4); return f; }
static inline double __longlong_as_double(long long v) { double d; std::memcpy(&d, &v, 8); return d; }
"""
_C_ARGS = {numpy.int64: ctypes.c_longlong, numpy.int32: ctypes.c_int, numpy.float32: ctypes.c_float,
           numpy.float64: ctypes.c_double}


@pytest.fixture(scope="module")
def emulated(tmp_path_factory):
    """``launch(kernel, grid, args)``: a RawKernel run block by block on the CPU (args as for CuPy)."""
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    folder = tmp_path_factory.mktemp("emulated")
    kernels = _cuda_kernels.registered()
    # each Elementwise instantiation behind an extern "C" entry taking its arrays as void pointers
    wrappers = []
    for i, k in enumerate(kernels):
        if isinstance(k, _cuda_kernels.Elementwise):
            letters, args, _ = k.signature()
            for c in ("float", "double"):
                casts = ", ".join(f"({_cuda_kernels.instantiated(a, letters, c)})p[{j}]" for j, a in enumerate(args))
                wrappers.append(f'extern "C" void emu_{k.name}_{c}(void** p, long long n) '
                                f'{{ k{i}::{k.name}<{", ".join([c] * len(letters))}>({casts}, n); }}')
    source = _cuda_kernels.translation_unit(kernels).replace("#include <cuda_fp16.h>", "")
    (folder / "k.cpp").write_text(_EMULATION + source + "\n".join(wrappers))
    subprocess.run(["g++", "-O1", "-shared", "-fPIC", "-o", str(folder / "k.so"), str(folder / "k.cpp")],
                   check=True)
    lib = ctypes.CDLL(str(folder / "k.so"))
    block = ctypes.c_uint.in_dll(lib, "blockIdx")

    def launch(kernel, grid, args):
        if isinstance(kernel, _cuda_kernels.Elementwise):   # args: arrays of one size, outputs last
            fn = getattr(lib, f"emu_{kernel.name}_{'double' if args[0].dtype == numpy.float64 else 'float'}")
            pointers = (ctypes.c_void_p * len(args))(*[a.ctypes.data for a in args])
            fn(pointers, ctypes.c_longlong(args[-1].size))
            return
        fn = getattr(lib, kernel.name)
        fn.argtypes = [ctypes.c_void_p if isinstance(a, numpy.ndarray) else _C_ARGS[type(a)] for a in args]
        values = [a.ctypes.data if isinstance(a, numpy.ndarray) else a for a in args]
        for b in range(grid):
            block.value = b
            fn(*values)
    return launch


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_emulated_elementwise_kernels_match_numpy(emulated, dtype):
    rng = numpy.random.default_rng(8)
    x, gy = (rng.standard_normal(40).astype(dtype) for _ in range(2))
    x[:3] = 0
    y_relu, y_sig, y_tanh = numpy.maximum(x, 0), 1 / (1 + numpy.exp(-x)), numpy.tanh(x)

    def run(kernel, *inputs):
        out = numpy.empty_like(inputs[0])
        emulated(kernel, 1, (*inputs, out))
        return out
    rtol = 1e-6 if dtype == numpy.float32 else 1e-13
    numpy.testing.assert_allclose(run(relu.relu_forward_kernel, x), y_relu, rtol=rtol)
    numpy.testing.assert_allclose(run(relu.relu_grad_kernel, y_relu, gy), gy * (x > 0), rtol=rtol)
    numpy.testing.assert_allclose(run(sigmoid.sigmoid_forward_kernel, x), y_sig, rtol=rtol)
    numpy.testing.assert_allclose(run(sigmoid.sigmoid_grad_kernel, y_sig, gy), gy * y_sig * (1 - y_sig), rtol=rtol)
    numpy.testing.assert_allclose(run(tanh.tanh_grad_kernel, y_tanh, gy), gy * (1 - y_tanh ** 2), rtol=rtol)
    # the label gradient over (N, C) = (5, 8): raw g and index read per row, n_class per element here
    y = rng.random((5, 8)).astype(dtype)
    g = rng.standard_normal(5).astype(dtype)
    t = numpy.array([0, 7, 3, 3, 5])
    index = (t + numpy.arange(5) * 8).astype(dtype)   # the wrapper instantiates I as T
    gx = numpy.empty_like(y)
    emulated(sce.label_grad_kernel, 1, (y, g, index, numpy.full(40, 8, numpy.int64), gx))
    numpy.testing.assert_allclose(gx, (y - numpy.eye(8, dtype=dtype)[t]) * g[:, None], rtol=rtol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_emulated_softmax_rows_and_channel_stats_match_numpy(emulated, dtype):
    rng = numpy.random.default_rng(5)
    x = (rng.standard_normal((4, 7)) * 20).astype(dtype)
    y, lse = numpy.empty_like(x), numpy.empty((4, 1), dtype)
    emulated(sce.softmax_rows_kernels[dtype], 4, (x, y, lse, numpy.int64(7)))
    m = x.max(axis=1, keepdims=True)
    ref = m + numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))
    numpy.testing.assert_allclose(lse, ref, rtol=1e-6)
    numpy.testing.assert_allclose(y, numpy.exp(x - ref), rtol=1e-5, atol=1e-30)
    x = (rng.standard_normal((3, 5, 2, 4)) * 3 + 1).astype(dtype)
    mean, var = numpy.empty(5, dtype), numpy.empty(5, dtype)
    emulated(_standardize.channel_stats_kernels[dtype], 5, (x, mean, var, numpy.int64(3), numpy.int64(5),
                                                            numpy.int64(8)))
    numpy.testing.assert_allclose(mean, x.mean(axis=(0, 2, 3)), rtol=1e-5)
    numpy.testing.assert_allclose(var, x.var(axis=(0, 2, 3)), rtol=1e-5)


@pytest.mark.parametrize("ksize, stride, pad, cover_all", [(2, 2, 0, False), (3, 2, 1, True), (3, 1, 1, False),
                                                            (2, 3, 1, True), (3, 1, 2, False)])
def test_emulated_max_pooling_matches_window_max_and_scatter(emulated, ksize, stride, pad, cover_all):
    rng = numpy.random.default_rng(6)
    x = rng.standard_normal((2, 3, 7, 6)).astype(numpy.float32)
    x[0, 0, 1, 1] = numpy.nan
    x[1, 2, :3, :3] = -numpy.inf
    geom = _window.pooling_geometry("max_pooling_2d", x, 2, ksize, stride, pad, cover_all)
    y_ref, idx_ref = _window.window_max(x, geom)
    y, idx = numpy.empty_like(y_ref), numpy.empty(y_ref.shape, numpy.int64)
    forward, grad = _window.max_pool_2d_kernels["float32"]
    emulated(forward, 1, (x, y, idx, numpy.int64(y.size)) + _window._geometry_args(geom))
    numpy.testing.assert_array_equal(y, y_ref)
    numpy.testing.assert_array_equal(idx, idx_ref)
    g = rng.standard_normal(y.shape).astype(numpy.float32)
    gx = numpy.empty_like(x)
    emulated(grad, 1, (g, idx, gx, numpy.int64(gx.size)) + _window._geometry_args(geom))
    numpy.testing.assert_allclose(gx, _window.window_scatter(g, geom, idx_ref), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name, kwargs", [("Adam", {"weight_decay_rate": 0.01, "eta": 0.5}), ("Adam", {}),
                                          ("MomentumSGD", {"lr": 0.1})])
def test_emulated_fused_updates_match_the_rules(emulated, name, kwargs):
    shapes = [(3, 4), (0,), (5,), ()]
    rng = numpy.random.default_rng(7)
    params = [kusari.Parameter(rng.standard_normal(s).astype(numpy.float32)) for s in shapes]
    copy_of = {id(p): p.array.copy() for p in params}   # what the fused kernel updates
    opt = getattr(kusari.optimizers, name)(**kwargs)
    link = kusari.Link()
    with link.init_scope():
        for i, p in enumerate(params):
            setattr(link, f"p{i}", p)
    opt.setup(link)
    ordered = list(link.params())
    state = {}
    for step in range(3):
        grads = [rng.standard_normal(p.shape).astype(numpy.float32) for p in ordered]
        for p, gr in zip(ordered, grads):
            p.grad = gr
        opt.update()   # the rules, on NumPy
        # the fused kernel on the copies, with the same step count and its own state
        names = ("m", "v") if name == "Adam" else ("v",)
        for p in ordered:
            state.setdefault(id(p), [numpy.zeros_like(p.array) for _ in names])
        table = numpy.array([a.ctypes.data for p, gr in zip(ordered, grads)
                             for a in (copy_of[id(p)], gr, *state[id(p)])], numpy.uint64)
        offsets = numpy.cumsum([0] + [p.size for p in ordered], dtype=numpy.int64)
        f = numpy.float32
        hp = opt.hyperparam
        if name == "Adam":
            rule = ordered[0].update_rule
            scalars = (f(hp.beta1), f(hp.beta2), f(hp.eps), f(rule.alpha_t), f(hp.weight_decay_rate), f(hp.eta))
            kernel = _fused.adam_kernels["float32"]
        else:
            scalars = (f(hp.lr), f(hp.momentum))
            kernel = _fused.momentum_sgd_kernels["float32"]
        emulated(kernel, 1, (table, offsets, numpy.int32(len(ordered)), numpy.int64(offsets[-1])) + scalars)
    for p in ordered:
        numpy.testing.assert_allclose(copy_of[id(p)], p.array, rtol=1e-6, atol=1e-7)


# ---- on the GPU: each kernel against its NumPy twin

def _cupy():
    import cupy
    return cupy


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_activation_kernels_match_numpy(dtype):
    cupy = _cupy()
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((7, 33)).astype(dtype)
    gy = rng.standard_normal((7, 33)).astype(dtype)
    y_relu, y_sig, y_tanh = numpy.maximum(x, 0), 1 / (1 + numpy.exp(-x)), numpy.tanh(x)
    tol = {"rtol": 1e-6 if dtype == numpy.float32 else 1e-12, "atol": 1e-6 if dtype == numpy.float32 else 1e-12}
    g = cupy.asarray
    numpy.testing.assert_allclose(relu.relu_forward_kernel(g(x)).get(), y_relu, **tol)
    numpy.testing.assert_allclose(relu.relu_grad_kernel(g(y_relu), g(gy)).get(), gy * (x > 0), **tol)
    numpy.testing.assert_allclose(sigmoid.sigmoid_forward_kernel(g(x)).get(), y_sig, **tol)
    numpy.testing.assert_allclose(sigmoid.sigmoid_grad_kernel(g(y_sig), g(gy)).get(), gy * y_sig * (1 - y_sig), **tol)
    numpy.testing.assert_allclose(tanh.tanh_grad_kernel(g(y_tanh), g(gy)).get(), gy * (1 - y_tanh ** 2), **tol)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(5, 3), (4, 1000), (1, 1)])
def test_softmax_cross_entropy_kernels_match_numpy(shape):
    cupy = _cupy()
    rng = numpy.random.default_rng(1)
    x = (rng.standard_normal(shape) * 30).astype(numpy.float32)
    y, lse = sce.softmax_rows(cupy.asarray(x))
    m = x.max(axis=1, keepdims=True)
    ref_lse = m + numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))
    numpy.testing.assert_allclose(y.get(), numpy.exp(x - ref_lse), rtol=1e-5, atol=1e-7)
    numpy.testing.assert_allclose(lse.get(), ref_lse, rtol=1e-6)
    t = rng.integers(0, shape[1], shape[0])
    g = rng.standard_normal(shape[0]).astype(numpy.float32)
    index = cupy.asarray(t + numpy.arange(shape[0]) * shape[1])
    gx = sce.label_grad_kernel(y, cupy.asarray(g), index, shape[1]).get()
    onehot = numpy.eye(shape[1], dtype=numpy.float32)[t]
    numpy.testing.assert_allclose(gx, (y.get() - onehot) * g[:, None], rtol=1e-5, atol=1e-7)


@pytest.mark.gpu
def test_softmax_cross_entropy_on_gpu_equals_numpy_with_ignored_labels():
    cupy = _cupy()
    rng = numpy.random.default_rng(2)
    x = rng.standard_normal((6, 10)).astype(numpy.float32)
    t = numpy.array([1, -1, 3, 9, 0, -1], numpy.int32)
    losses, grads = [], []
    for xp in (numpy, cupy):
        v = kusari.Variable(xp.asarray(x))
        loss = kusari.functions.softmax_cross_entropy(v, xp.asarray(t))
        loss.backward()
        losses.append(kusari.backend.to_cpu(loss.array))
        grads.append(kusari.backend.to_cpu(v.grad))
    numpy.testing.assert_allclose(losses[1], losses[0], rtol=1e-6)
    numpy.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-7)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(8, 3, 5, 5), (2, 4), (1, 2, 1000)])
def test_channel_stats_kernel_matches_numpy(shape):
    cupy = _cupy()
    x = (numpy.random.default_rng(3).standard_normal(shape) * 3 + 2).astype(numpy.float64)
    mean, var = _standardize.channel_stats(cupy.asarray(x))
    axes = (0,) + tuple(range(2, x.ndim))
    numpy.testing.assert_allclose(mean.get(), x.mean(axis=axes), rtol=1e-12)
    numpy.testing.assert_allclose(var.get(), x.var(axis=axes), rtol=1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("ksize, stride, pad, cover_all", [(2, 2, 0, False), (3, 2, 1, True), (3, 1, 1, False),
                                                            (2, 3, 1, True)])
def test_max_pooling_kernels_match_numpy(ksize, stride, pad, cover_all):
    cupy = _cupy()
    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((2, 3, 7, 6)).astype(numpy.float32)
    x[0, 0, 1, 1] = numpy.nan
    x[1, 2, :2, :2] = -numpy.inf
    geom = _window.pooling_geometry("max_pooling_2d", x, 2, ksize, stride, pad, cover_all)
    y_ref, idx_ref = _window.window_max(x, geom)            # NumPy: the reference
    y, idx = _window.window_max(cupy.asarray(x), geom)      # the fused kernel
    numpy.testing.assert_array_equal(y.get(), y_ref)
    numpy.testing.assert_array_equal(idx.get(), idx_ref)
    g = rng.standard_normal(y_ref.shape).astype(numpy.float32)
    gx = _window.window_scatter(cupy.asarray(g), geom, idx).get()
    numpy.testing.assert_allclose(gx, _window.window_scatter(g, geom, idx_ref), rtol=1e-6, atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("name, kwargs", [("Adam", {"weight_decay_rate": 0.01, "eta": 0.5}),
                                          ("Adam", {}), ("MomentumSGD", {"lr": 0.1})])
def test_fused_update_equals_the_rules_on_numpy(name, kwargs, monkeypatch):
    cupy = _cupy()
    launched = []
    launch = _fused._launch
    monkeypatch.setattr(_fused, "_launch", lambda kernels, groups, *a: (
        launched.append(sum(len(m) for m in groups.values())), launch(kernels, groups, *a)))
    results = []
    for xp in (numpy, cupy):
        model = kusari.Sequential(kusari.links.Linear(4, 6), kusari.links.Linear(6, 1))
        for i, p in enumerate(model.params()):
            p.array[...] = numpy.random.default_rng(i).standard_normal(p.shape)
        if xp is cupy:
            model.to_device("@cupy:0")
        opt = getattr(kusari.optimizers, name)(**kwargs).setup(model)
        for step in range(3):
            for i, p in enumerate(model.params()):
                p.grad = xp.asarray(numpy.random.default_rng(10 * step + i).standard_normal(p.shape),
                                    numpy.float32)
            opt.update()
        results.append([kusari.backend.to_cpu(p.array) for p in model.params()])
    assert launched == [4, 4, 4]   # one fused call per step took all four parameters
    for cpu, gpu in zip(*results):
        numpy.testing.assert_allclose(gpu, cpu, rtol=1e-5, atol=1e-6)
