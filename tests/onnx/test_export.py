"""kusari.onnx.export's contract: names, opsets, dynamic axes, bad input, external converters, export_testcase."""
import io

import numpy
import onnx
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
import kusari.onnx
from kusari.function_node import FunctionNode

rng = numpy.random.default_rng(8)


class _Net(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.block = kusari.Sequential(L.Linear(4, 2))

    def forward(self, x):
        return self.block(F.relu(self.l1(x)))


def _x(n=2):
    return rng.standard_normal((n, 3)).astype(numpy.float32)


def test_parameters_are_initializers_named_by_link_path():
    proto = kusari.onnx.export(_Net(), _x())
    assert {t.name for t in proto.graph.initializer} == {"/l1/W", "/l1/b", "/block/0/W", "/block/0/b"}
    assert [i.name for i in proto.graph.input] == ["Input_0"]
    assert [o.name for o in proto.graph.output] == ["Output_0"]


def test_lazily_initialized_parameters_keep_their_paths():
    model = kusari.Sequential(L.Linear(None, 4), F.relu, L.Linear(None, 2))   # shapes set by the first forward
    proto = kusari.onnx.export(model, _x())   # no dynamic axes: the traced forward is the first one
    assert {t.name for t in proto.graph.initializer} >= {"/0/W", "/0/b", "/1/W", "/1/b"}


def test_names_filename_and_named_inout(tmp_path, check):
    model = _Net()
    path = tmp_path / "net.onnx"
    proto, inputs, outputs = kusari.onnx.export(model, _x(), filename=str(path), input_names=["obs"],
                                                output_names=["q"], return_named_inout=True)
    assert onnx.load(str(path)) == proto
    assert list(inputs) == ["obs"] and list(outputs) == ["q"]
    with kusari.using_config("train", False):
        numpy.testing.assert_allclose(outputs["q"], model(inputs["obs"]).array)
    buffer = io.BytesIO()
    kusari.onnx.export(model, {"x": _x()}, filename=buffer)
    assert onnx.load_from_string(buffer.getvalue()).graph.input[0].name == "x"


def test_dynamic_axes_in_dict_and_list_form():
    proto = kusari.onnx.export(_Net(), _x(), dynamic_axes={"Input_0": {0: "batch"}, "Output_0": [0]})
    in_dim = proto.graph.input[0].type.tensor_type.shape.dim[0]
    out_dim = proto.graph.output[0].type.tensor_type.shape.dim[0]
    assert in_dim.dim_param == "batch" and out_dim.dim_param == "Output_0_dim0"
    with pytest.raises(ValueError, match="dynamic_axes names \\['y'\\]"):
        kusari.onnx.export(_Net(), _x(), dynamic_axes={"y": [0]})


def test_every_supported_opset_exports_and_runs(check):
    opsets = kusari.onnx.supported_opsets()
    assert opsets[0] == 13 and opsets[-1] <= onnx.defs.onnx_opset_version()
    for opset in (opsets[0], 17, opsets[-1]):
        proto = check(lambda x: F.layer_normalization(F.sum(x, axis=2), GAMMA, BETA) + F.max(x, axis=2),
                      lambda n: (rng.standard_normal((n, 4, 3)).astype(numpy.float32),), opset_version=opset)
        assert proto.opset_import[0].version == opset


GAMMA, BETA = numpy.ones(4, numpy.float32), numpy.zeros(4, numpy.float32)


@pytest.mark.parametrize("opset", [12, 10 ** 3, "13"])
def test_unsupported_opset_names_the_range(opset):
    opsets = kusari.onnx.supported_opsets()
    with pytest.raises(ValueError, match=f"opsets 13 to {opsets[-1]}"):
        kusari.onnx.export(_Net(), _x(), opset_version=opset)


@pytest.mark.parametrize("result", [numpy.zeros(2), [1.0], {"a": 3}])
def test_forward_returning_non_variables_is_rejected_by_name(result):
    with pytest.raises(TypeError, match="export: .*(ndarray|float|int)"):
        kusari.onnx.export(lambda x: result, _x())


class _Cube(FunctionNode):
    def forward(self, inputs):
        return inputs[0] ** 3,


class _WithCube(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.inner = kusari.Sequential(L.Linear(3, 3))

    def forward(self, x):
        return self.inner(_Cube().apply((x,))[0])


def test_op_without_converter_names_the_op_and_the_link_path():
    with pytest.raises(kusari.onnx.ExportError, match="_Cube \\(at link path /\\) has no ONNX converter"):
        kusari.onnx.export(_WithCube(), _x())
    model = kusari.Sequential(_WithCube())
    with pytest.raises(kusari.onnx.ExportError, match="_Cube \\(at link path /0\\)"):
        kusari.onnx.export(model, _x())


def test_external_converter(check):
    def cube(ctx, node):
        x = ctx.inputs[0]
        return ctx.add("Mul", [ctx.add("Mul", [x, x]), x])
    model = _WithCube()
    for key in (_Cube, "_Cube"):
        proto = kusari.onnx.export(model, _x(), external_converters={key: cube})
        assert [n.op_type for n in proto.graph.node][:2] == ["Mul", "Mul"]
    import kusari.onnx.converters as registry
    registry.register_converter(_Cube)(cube)
    try:
        check(model, lambda n: (_x(n),))
    finally:
        registry._converters.pop(_Cube)


@pytest.mark.filterwarnings("ignore:onnx.version is deprecated:DeprecationWarning")   # onnxruntime.backend's import
def test_export_testcase_layout(tmp_path):
    model = _Net()
    x = _x(3)
    kusari.onnx.export_testcase(model, x, str(tmp_path), dynamic_axes={"Input_0": [0]})
    proto = onnx.load(str(tmp_path / "model.onnx"))
    onnx.checker.check_model(proto)
    tensors = {}
    for name in ("input_0", "output_0"):
        tensor = onnx.TensorProto()
        tensor.ParseFromString((tmp_path / "test_data_set_0" / f"{name}.pb").read_bytes())
        tensors[name] = tensor
    assert tensors["input_0"].name == "Input_0" and tensors["output_0"].name == "Output_0"
    numpy.testing.assert_array_equal(onnx.numpy_helper.to_array(tensors["input_0"]), x)
    with kusari.using_config("train", False):
        numpy.testing.assert_allclose(onnx.numpy_helper.to_array(tensors["output_0"]), model(x).array)
    # what an onnx.backend test runner does with the folder: prepare the model, feed input_0, compare
    import onnxruntime.backend
    got, = onnxruntime.backend.prepare(proto, "CPU").run([onnx.numpy_helper.to_array(tensors["input_0"])])
    numpy.testing.assert_allclose(got, onnx.numpy_helper.to_array(tensors["output_0"]), rtol=1e-5, atol=1e-6)


def test_train_mode_traces_training_ops():
    """train=True traces the training path: dropout is then an op with no ONNX form here, named."""
    model = kusari.Sequential(L.Linear(3, 4), lambda h: F.dropout(h, 0.5))
    kusari.onnx.export(model, _x())                       # inference: dropout applies no op
    with pytest.raises(kusari.onnx.ExportError, match="Dropout \\(at link path /\\) has no ONNX converter"):
        kusari.onnx.export(model, _x(), train=True)


def test_output_that_is_an_input_is_copied(check):
    check(lambda x, y: (x, F.relu(y), x), lambda n: (_x(n), _x(n)))


def test_sizes_computed_in_python_follow_the_dynamic_axes(check):
    """reshape to (x.shape[0] * 2, -1), broadcast to x.shape and zeros of x's size run at every batch size."""
    def forward(x):
        n = x.shape[0]
        h = F.reshape(x, (n * 2, -1))
        zeros = kusari.Variable(numpy.zeros((n, 6), numpy.float32))
        return F.reshape(h, (n, 6)) + F.broadcast_to(F.sum(x, axis=0), x.shape) + zeros
    check(forward, lambda n: (rng.standard_normal((n, 6)).astype(numpy.float32),), batches=(2, 5))


def test_sizes_that_must_be_multiples_of_a_stride_are_probed():
    """A forward that takes heights and widths in multiples of 4 only: the probe grows them by 4 (not 1), so the
    sizes it reads from x.shape follow the axes, with no warning."""
    def forward(x):
        n, c, h, w = x.shape
        if h % 4 or w % 4:
            raise ValueError(f"forward: height and width must be multiples of 4, got {h}x{w}")
        pooled = F.reshape(F.max_pooling_2d(x, 4, cover_all=False), (n, -1))
        return pooled, x + F.broadcast_to(F.sum(x, axis=(2, 3), keepdims=True), x.shape)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proto = kusari.onnx.export(forward, rng.standard_normal((1, 2, 8, 12)).astype(numpy.float32),
                                   dynamic_axes={"Input_0": {0: "n", 2: "h", 3: "w"}})
    from .conftest import run_onnx
    for shape in ((1, 2, 8, 12), (3, 2, 16, 4), (2, 2, 20, 28)):
        x = rng.standard_normal(shape).astype(numpy.float32)
        for got, want in zip(run_onnx(proto, {"Input_0": x}), forward(x)):
            numpy.testing.assert_allclose(got, want.array, rtol=1e-5, atol=1e-5, err_msg=str(shape))


def test_a_forward_failing_at_every_probed_size_warns_and_keeps_the_example_sizes():
    def forward(x):
        if x.shape[2] != 8:
            raise ValueError("forward: height 8 only")
        return F.relu(x)
    with pytest.warns(UserWarning, match="fails with the dynamic axes one longer \\(ValueError: forward: height 8 "
                                         "only\\) and with the axes after the first up to 64 longer"):
        kusari.onnx.export(forward, numpy.zeros((1, 1, 8, 8), numpy.float32), dynamic_axes={"Input_0": [0, 2]})


def test_control_flow_on_sizes_is_reported():
    def forward(x):
        return F.relu(x) if x.shape[0] < 3 else F.tanh(x)
    with pytest.warns(UserWarning, match="applied other ops"):
        kusari.onnx.export(forward, _x(2), dynamic_axes={"Input_0": [0]})


def test_constant_with_values_made_from_sizes_is_refused():
    def forward(x):
        return x + kusari.Variable(numpy.arange(x.shape[0] * 3, dtype=numpy.float32).reshape(-1, 3))
    with pytest.raises(kusari.onnx.ExportError, match="Add .*changes with the dynamic axes"):
        kusari.onnx.export(forward, _x(2), dynamic_axes={"Input_0": [0]})


READ = "read the data of a traced value"


def test_data_reads_warn_through_the_static_graph_guards():
    """Values computed in Python from x.array are constants of the graph: export says where."""
    def thresholded(x):
        return F.relu(x - float(x.array.mean()))
    with pytest.warns(UserWarning, match=f"{READ} .*test_export.py"):
        kusari.onnx.export(thresholded, _x(3))
    with kusari.using_config("static_graph_strict", True):
        with pytest.raises(kusari.onnx.ExportError, match=READ):
            kusari.onnx.export(thresholded, _x(3))


def test_the_probe_run_catches_what_the_guards_do_not_see():
    """numpy.asarray copies a guarded view unseen; the rotated probe run still shows the value changing."""
    def scaled(x):
        first = numpy.asarray(x.array)[:1] * 0 + numpy.asarray(x.array)[0, 0]
        return x * kusari.Variable(first)
    with pytest.warns(UserWarning, match="an input of Mul .* was computed in Python from the inputs' data"):
        kusari.onnx.export(scaled, _x(3), dynamic_axes={"Input_0": [0]})

    def thresholded(x):
        return F.relu(x - float(numpy.asarray(x.array).mean()))
    with pytest.warns(UserWarning, match="AddConstant .* has value computed in Python"):
        kusari.onnx.export(thresholded, _x(3), dynamic_axes={"Input_0": [0]})

    def picked(x):
        return F.select_item(x, numpy.zeros(x.shape[0], numpy.int32) + int(numpy.asarray(x.array)[0].argmax()))
    with pytest.raises(kusari.onnx.ExportError, match="SelectItem .*changes with the dynamic axes"):
        kusari.onnx.export(picked, numpy.array([[1, 0], [0, 1]], numpy.float32), dynamic_axes={"Input_0": [0]})


class _StaticNet(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(3, 2)

    @kusari.static_graph
    def forward(self, x):
        return F.relu(self.l(x))


def test_a_static_graph_forward_exports_its_ops(check):
    """Under export's trace static_graph runs the forward eagerly, so its ops are converted (none replayed)."""
    model = _StaticNet()
    model(_x())
    model(_x())   # traced, then replayed
    proto = check(model, lambda n: (_x(n),))
    assert [n.op_type for n in proto.graph.node] == ["Transpose", "MatMul", "Add", "Relu"]


def test_import_kusari_does_not_import_onnx():
    import subprocess
    import sys
    code = "import sys, kusari; assert 'onnx' not in sys.modules and 'onnxruntime' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_coverage_reports_every_function():
    table = kusari.onnx.coverage()
    assert table["relu"] and table["convolution_2d"] and table["linear"] and table["dropout"]
    assert table["n_step_lstm"] and table["roi_pooling_2d"] and not table["connectionist_temporal_classification"]
    assert set(table) >= {"relu", "softmax_cross_entropy"}
