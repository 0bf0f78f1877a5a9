"""Shared setup of the kusari.onnx tests: skip cleanly without the [onnx] extra; export-and-compare helpers."""
import numpy
import pytest

onnx = pytest.importorskip("onnx", reason="kusari.onnx needs the [onnx] extra (onnx, onnxruntime)")
ort = pytest.importorskip("onnxruntime", reason="kusari.onnx needs the [onnx] extra (onnx, onnxruntime)")

import kusari  # NOQA: E402


def run_onnx(model_proto, inputs):
    """Run ``model_proto`` in ONNX Runtime (CPU, one thread) on ``{name: array}``; returns the output list."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(model_proto.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, inputs)


def kusari_outputs(model, args):
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        out = model(*[kusari.Variable(a) if a.dtype.kind == "f" else a for a in args])
    out = out if isinstance(out, (tuple, list)) else (out,)
    return [y.array for y in out]


def check_export(model, make_inputs, batches=(2, 3), rtol=1e-4, atol=1e-5, opset_version=None, dynamic=True,
                 dim_names=None):
    """Export ``model`` traced on ``make_inputs(batches[0])`` with axis 0 of every input dynamic, check the file with
    ``onnx.checker`` and compare ONNX Runtime with kusari at every batch size; then load the file back
    (``kusari.onnx.load``) and compare the loaded Link with kusari too. Returns the ModelProto.

    ``dim_names``: the name of each input's axis 0 (None: fixed), for inputs whose first axes vary apart
    (default: all ``batch``)."""
    import kusari.onnx
    args = make_inputs(batches[0])
    names = [f"Input_{i}" for i in range(len(args))]
    dims = dim_names or ["batch"] * len(args)
    axes = ({name: {0: d} for name, a, d in zip(names, args, dims) if numpy.ndim(a) > 0 and d is not None}
            if dynamic else None)
    proto = kusari.onnx.export(model, tuple(args), opset_version=opset_version, dynamic_axes=axes)
    onnx.checker.check_model(proto, full_check=True)
    for n in (batches if dynamic else batches[:1]):
        args = make_inputs(n)
        got = run_onnx(proto, dict(zip(names, args)))
        want = kusari_outputs(model, args)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape, (n, g.shape, w.shape)
            numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"batch {n}")
        loaded = kusari_outputs(kusari.onnx.load(proto), args)
        for g, w in zip(loaded, want):
            assert g.shape == w.shape, ("loaded", n, g.shape, w.shape)
            numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"loaded, batch {n}")
    return proto


def declared_in(family: str) -> set:
    """The kusari.functions names whose converters live in ``family`` (the module of their FunctionNodes)."""
    from kusari.onnx.converters import declared_functions
    return {name for name, classes in declared_functions().items()
            if classes and all(c.__module__.startswith(f"kusari.functions.{family}.") for c in classes)}


@pytest.fixture
def check():
    """``check_export`` (see there)."""
    return check_export


@pytest.fixture
def declared():
    """``declared_in`` (see there)."""
    return declared_in
