"""kusari.cudnn's dispatch rule, cache keys and errors, on the CPU (a stand-in CuPy module where needed);
cuDNN against the im2col reference on the GPU."""
import sys
import types

import numpy
import pytest

import kusari
from kusari import cudnn
from kusari.cudnn import convolution as cudnn_convolution


class _FakeGpuArray(numpy.ndarray):
    """A NumPy array that kusari.backend takes for a CuPy one (the stand-in cupy module's ndarray)."""


@pytest.fixture
def fake_cupy(monkeypatch):
    module = types.ModuleType("cupy")
    module.ndarray = _FakeGpuArray
    monkeypatch.setitem(sys.modules, "cupy", module)
    return module


def _gpu(shape, dtype=numpy.float32):
    return numpy.zeros(shape, dtype).view(_FakeGpuArray)


@pytest.fixture
def frontend(monkeypatch):
    """A stand-in frontend module that library_for returns when cuDNN 'imports'."""
    lib = types.ModuleType("cudnn")
    monkeypatch.setattr(cudnn, "_import_frontend", lambda: (lib, None))
    return lib


@pytest.fixture
def no_frontend(monkeypatch):
    monkeypatch.setattr(cudnn, "_import_frontend", lambda: (None, "ModuleNotFoundError: No module named 'cudnn'"))


def test_cpu_arrays_never_take_cudnn(frontend):
    x = numpy.zeros((1, 2, 3, 3), numpy.float32)
    for mode in cudnn.MODES:
        with kusari.using_config("use_cudnn", mode):
            assert cudnn.library_for(x, x) is None


@pytest.mark.parametrize("mode, dtype, expected", [
    ("auto", numpy.float32, True), ("auto", numpy.float16, True), ("auto", numpy.float64, False),
    ("always", numpy.float64, True), ("always", numpy.float32, True), ("never", numpy.float32, False)])
def test_which_gpu_inputs_take_cudnn_under_each_mode(fake_cupy, frontend, mode, dtype, expected):
    x, w = _gpu((2, 3, 4, 4), dtype), _gpu((5, 3, 3, 3), dtype)
    with kusari.using_config("use_cudnn", mode):
        assert (cudnn.library_for(x, w, None) is frontend) is expected


def test_mixed_dtypes_empty_arrays_and_host_arrays_fall_back(fake_cupy, frontend):
    x = _gpu((2, 3, 4, 4))
    with kusari.using_config("use_cudnn", "always"):
        assert cudnn.library_for(x, _gpu((5, 3, 3, 3), numpy.float16)) is None
        assert cudnn.library_for(x, _gpu((0, 3, 3, 3))) is None
        assert cudnn.library_for(x, numpy.zeros((5, 3, 3, 3), numpy.float32)) is None


def test_auto_without_the_frontend_falls_back_quietly(fake_cupy, no_frontend):
    assert kusari.config.use_cudnn == "auto"
    assert cudnn.library_for(_gpu((2, 3, 4, 4))) is None


def test_always_without_the_frontend_says_what_to_install(fake_cupy, no_frontend):
    with kusari.using_config("use_cudnn", "always"):
        with pytest.raises(RuntimeError, match=r"use_cudnn='always' but cuDNN cannot be used: "
                                               r"nvidia-cudnn-frontend does not import \(ModuleNotFound.*"
                                               r"pip install 'kusari\[cuda12\]'"):
            cudnn.library_for(_gpu((2, 3, 4, 4)))


def test_an_unknown_mode_is_refused_by_name():
    with kusari.using_config("use_cudnn", "sometimes"):
        with pytest.raises(ValueError, match=r"config.use_cudnn must be one of \('auto', 'always', "
                                             r"'never'\), got 'sometimes'"):
            cudnn.library_for(numpy.zeros(3, numpy.float32))


def test_graph_key_separates_what_changes_the_graph():
    x = numpy.zeros((2, 3, 8, 8), numpy.float32)
    w = numpy.zeros((4, 3, 3, 3), numpy.float32)
    params = ((1, 1), (1, 1), (1, 1), (1, 1), 1)
    base = cudnn.graph_key("conv_fprop", (x, w), params, (False, True, False))
    assert base == cudnn.graph_key("conv_fprop", (x.copy(), w.copy()), params, (False, True, False))
    variants = [
        cudnn.graph_key("conv_dgrad", (x, w), params, (False, True, False)),            # operation
        cudnn.graph_key("conv_fprop", (x.astype(numpy.float16), w.astype(numpy.float16)), params,
                        (False, True, False)),                                          # dtype
        cudnn.graph_key("conv_fprop", (x[:1], w), params, (False, True, False)),        # shape
        cudnn.graph_key("conv_fprop", (numpy.zeros((2, 8, 8, 3), numpy.float32).transpose(0, 3, 1, 2), w),
                        params, (False, True, False)),                                  # channels-last
        cudnn.graph_key("conv_fprop", (x, w), ((2, 2),) + params[1:], (False, True, False)),   # stride
        cudnn.graph_key("conv_fprop", (x, w), params, (True, True, False)),             # deterministic
        cudnn.graph_key("conv_fprop", (x, w), params, (False, False, False)),           # TF32
        cudnn.graph_key("conv_fprop", (x, w), params, (False, True, True)),             # autotune
    ]
    assert len({base, *variants}) == len(variants) + 1


def test_graph_key_reads_the_switches_from_config():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with kusari.using_config("cudnn_deterministic", True), kusari.using_config("cudnn_allow_tf32", False), \
            kusari.using_config("autotune", True):
        assert cudnn.graph_key("op", (x,), ())[-1] == (True, False, True)
    assert cudnn.graph_key("op", (x,), ())[-1] == (False, True, False)


def test_graph_cache_builds_once_per_key_and_evicts_the_least_recent():
    cache = cudnn.GraphCache(size=2)
    built = []

    def make(name):
        return lambda: built.append(name) or name

    assert cache.get("a", make("a")) == "a" and cache.get("a", make("a2")) == "a"
    cache.get("b", make("b"))
    cache.get("a", make("a3"))       # a is now the most recent
    cache.get("c", make("c"))        # evicts b
    cache.get("b", make("b2"))
    assert built == ["a", "b", "c", "b2"] and len(cache) == 2


@pytest.mark.parametrize("in_size, k, stride, pad, dilate, cover_all", [
    (5, 2, 2, 0, 1, False), (5, 2, 2, 0, 1, True), (7, 3, 1, 1, 1, False), (9, 3, 2, 2, 2, True)])
def test_post_padding_gives_the_im2col_output_size(in_size, k, stride, pad, dilate, cover_all):
    out = kusari.utils.conv.get_conv_outsize(in_size, k, stride, pad, cover_all, dilate)
    post, = cudnn_convolution.post_padding((in_size,), (k,), (out,), (stride,), (pad,), (dilate,))
    assert post >= pad
    # cuDNN's output size for these paddings: floor((i + pre + post - dilated k) / s) + 1
    assert (in_size + pad + post - ((k - 1) * dilate + 1)) // stride + 1 == out


def test_cpu_convolution_never_asks_the_frontend(monkeypatch):
    monkeypatch.setattr(cudnn, "_import_frontend", lambda: pytest.fail("the CPU path asked for cuDNN"))
    x = numpy.ones((1, 2, 5, 5), numpy.float32)
    w = numpy.ones((3, 2, 3, 3), numpy.float32)
    with kusari.using_config("use_cudnn", "always"):
        y = kusari.functions.convolution_2d(x, w, pad=1)
    assert y.shape == (1, 3, 5, 5) and y.array[0, 0, 2, 2] == 18


# ---- on the GPU: cuDNN against the im2col + cuBLAS reference

@pytest.mark.gpu
@pytest.mark.parametrize("stride, pad, dilate, groups, cover_all", [
    (1, 1, 1, 1, False), (2, 0, 1, 1, True), (1, 2, 2, 1, False), (2, 1, 1, 2, False), (1, 1, 1, 4, False)])
def test_cudnn_convolution_matches_im2col_forward_and_backward(stride, pad, dilate, groups, cover_all):
    import cupy
    if not cudnn.available():
        pytest.skip("nvidia-cudnn-frontend is not installed")
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((2, 4, 9, 9)).astype(numpy.float32)
    w = rng.standard_normal((8, 4 // groups, 3, 3)).astype(numpy.float32)
    b = rng.standard_normal(8).astype(numpy.float32)
    results = {}
    for mode in ("never", "always"):
        with kusari.using_config("use_cudnn", mode), kusari.using_config("cudnn_allow_tf32", False):
            xv, wv, bv = (kusari.Variable(cupy.asarray(a)) for a in (x, w, b))
            y = kusari.functions.convolution_2d(xv, wv, bv, stride=stride, pad=pad, dilate=dilate,
                                                groups=groups, cover_all=cover_all)
            y.grad = cupy.asarray(rng.standard_normal(y.shape).astype(numpy.float32)) if mode == "never" \
                else cupy.asarray(results["never"][4])
            y.backward()
            results[mode] = [a.get() for a in (y.array, xv.grad, wv.grad, bv.grad, y.grad)]
    for ref, got in zip(results["never"][:4], results["always"][:4]):
        numpy.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


class _RecordingGraph:
    """Records the calls that kusari.cudnn.build makes on a frontend graph."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def call(*args):
            self.calls.append((name,) + args)
            return 0
        return call


def _stand_in_frontend():
    notes = types.SimpleNamespace(NONDETERMINISTIC="NONDETERMINISTIC", TENSOR_CORE="TENSOR_CORE")
    return types.SimpleNamespace(heur_mode=types.SimpleNamespace(A="A", FALLBACK="FALLBACK"),
                                 numerical_note=notes,
                                 build_plan_policy=types.SimpleNamespace(ALL="ALL"))


@pytest.mark.parametrize("switches, dtype, deselected", [
    ((False, True, False), numpy.float32, []),
    ((True, True, False), numpy.float32, [["NONDETERMINISTIC"]]),
    ((False, False, False), numpy.float32, [["TENSOR_CORE"]]),
    ((False, False, False), numpy.float16, []),            # TF32 concerns float32 only
    ((True, False, False), numpy.float32, [["NONDETERMINISTIC"], ["TENSOR_CORE"]])])
def test_build_filters_engines_by_the_switches(switches, dtype, deselected):
    graph = _RecordingGraph()
    plan = cudnn.build(_stand_in_frontend(), graph, {}, switches, dtype)
    names = [c[0] for c in graph.calls]
    assert names[:3] == ["validate", "build_operation_graph", "create_execution_plans"]
    assert graph.calls[2][1] == ["A", "FALLBACK"]       # heuristics mode A, then the fallback list
    assert [list(c[1]) for c in graph.calls if c[0] == "deselect_numeric_notes"] == deselected
    assert names.index("check_support") < names.index("build_plans") and plan.index is None
    assert names[-1] == "get_workspace_size"     # of the plan the build chose


def test_autotune_builds_every_plan_and_keeps_the_fastest(monkeypatch):
    graph = _RecordingGraph()
    chosen = object()
    monkeypatch.setattr(cudnn, "_fastest", lambda lib, g, tensors, arrays: chosen)
    assert cudnn.build(_stand_in_frontend(), graph, {}, (False, True, True), numpy.float32,
                       time_with={"x": None}) is chosen
    assert ("build_plans", "ALL") in graph.calls


def test_an_unsupported_graph_warns_once_under_auto_and_is_an_error_under_always(monkeypatch):
    monkeypatch.setattr(cudnn, "graphs", cudnn.GraphCache())
    monkeypatch.setattr(cudnn, "_refused", set())
    key = ("conv_fprop", 0, (("float32", (1, 3, 5, 5), (75, 25, 5, 1)),), ((1, 1),), (False, True, False))
    tries = []

    def refuse():
        tries.append(1)
        raise RuntimeError("no engine")

    with kusari.using_config("use_cudnn", "always"):
        with pytest.raises(RuntimeError, match=r"use_cudnn='always' but cuDNN does not support conv_fprop "
                                               r"for .*\(1, 3, 5, 5\).*: no engine"):
            cudnn.plan_for(None, key, refuse)
    with pytest.warns(UserWarning, match="conv_fprop for .* is not supported by cuDNN \\(no engine\\); "
                                         "the CuPy kernels compute it"):
        assert cudnn.plan_for(None, key, refuse) is None
    assert cudnn.plan_for(None, key, refuse) is None     # remembered: no second build, no second warning
    assert len(tries) == 2
