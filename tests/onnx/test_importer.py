"""kusari.onnx.load: exported models round-trip, a model written with onnx.helper runs, weights fine-tune."""
import numpy
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import kusari
import kusari.functions as F
import kusari.links as L
import kusari.onnx

rng = numpy.random.default_rng(10)


def _same_outputs(model, loaded, *xs):
    with kusari.using_config("train", False):
        want = model(*xs)
        got = loaded(*xs)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    for g, w in zip(got, want):
        numpy.testing.assert_allclose(g.array, w.array, rtol=1e-5, atol=1e-6)


class _Mixed(kusari.Chain):
    """Conv, BN, pooling, LayerNorm, softmax, concat and getitem: what the converters emit in one net."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, stride=2, pad=1)
            self.bn = L.BatchNormalization(4)
            self.fc = L.Linear(4 * 3 * 3, 6)
            self.ln = L.LayerNormalization(6)
            self.embed = L.EmbedID(5, 6)

    def forward(self, x, ids):
        h = F.max_pooling_2d(F.relu(self.bn(self.conv(x))), 3, 2, pad=1)
        h = self.ln(self.fc(h))
        e = F.sum(self.embed(ids), axis=1)
        return F.softmax(F.concat((h, e), axis=1)[:, 1:], axis=1), F.tanh(h)


def _mixed_inputs(n):
    return (rng.uniform(0, 1, (n, 3, 7, 7)).astype(numpy.float32), rng.integers(0, 5, (n, 4)).astype(numpy.int32))


def test_round_trip_of_a_mixed_model_keeps_names_and_outputs():
    model = _Mixed()
    with kusari.using_config("train", True):
        model(*_mixed_inputs(4))    # running statistics away from zero and one
    proto = kusari.onnx.export(model, _mixed_inputs(2), dynamic_axes={"Input_0": [0], "Input_1": [0]})
    loaded = kusari.onnx.load(proto)
    assert sorted(n for n, _ in loaded.namedparams()) == sorted(n for n, _ in model.namedparams())
    for n in (2, 5):
        _same_outputs(model, loaded, *_mixed_inputs(n))
    numpy.testing.assert_array_equal(loaded.bn.avg_mean, model.bn.avg_mean)   # statistics are not parameters


@pytest.mark.parametrize("name", ["LeNet5", "MnistMLP"])
def test_round_trip_of_the_zoo_mnist_models(name, tmp_path):
    import kusari.model_zoo.models as zoo
    model = getattr(zoo, name)()
    x = rng.uniform(0, 1, (3, 1, 28, 28) if name == "LeNet5" else (3, 784)).astype(numpy.float32)
    kusari.onnx.export(model, x, filename=tmp_path / "m.onnx")
    _same_outputs(model, kusari.onnx.load(tmp_path / "m.onnx"), x)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ResNet50", "MobileNetV2"])
def test_round_trip_of_vision_models(name):
    import kusari.vision.links as VL
    model = getattr(VL, name)(n_class=10)
    x = rng.uniform(0, 255, (2, 3, 64, 64)).astype(numpy.float32)
    _same_outputs(model, kusari.onnx.load(kusari.onnx.export(model, x)), x)


def test_loaded_model_fine_tunes():
    model = kusari.Sequential(L.Linear(4, 8), F.relu, L.Linear(8, 3))
    x = rng.standard_normal((16, 4)).astype(numpy.float32)
    t = rng.integers(0, 3, 16).astype(numpy.int32)
    loaded = kusari.onnx.load(kusari.onnx.export(model, x, dynamic_axes={"Input_0": [0]}))
    optimizer = kusari.optimizers.SGD(lr=0.1).setup(loaded)
    first = float(F.softmax_cross_entropy(loaded(x), t).array)
    for _ in range(20):
        loss = F.softmax_cross_entropy(loaded(x), t)
        loaded.cleargrads()
        loss.backward()
        assert all(p.grad is not None for p in loaded.params())
        optimizer.update()
    assert float(F.softmax_cross_entropy(loaded(x), t).array) < first
    assert not numpy.allclose(getattr(loaded, "0").W.array, model[0].W.array)   # the copy trained


def test_save_and_load_npz_of_an_imported_graph(tmp_path):
    model = _Mixed()
    proto = kusari.onnx.export(model, _mixed_inputs(2))
    a, b = kusari.onnx.load(proto), kusari.onnx.load(proto)
    for p in a.params():
        p.array[...] = rng.standard_normal(p.shape)
    kusari.serializers.save_npz(tmp_path / "g.npz", a)
    kusari.serializers.load_npz(tmp_path / "g.npz", b)
    _same_outputs(a, b, *_mixed_inputs(2))


def _foreign_model(opset=13):
    """A PyTorch-style file: dotted and '::' names, Gemm, asymmetric pads, ceil-mode pooling, shape arithmetic."""
    w = {"conv.weight": rng.standard_normal((4, 2, 3, 3)).astype(numpy.float32) * 0.3,
         "conv.bias": rng.standard_normal(4).astype(numpy.float32),
         "onnx::Gemm_7": rng.standard_normal((5, 4 * 3 * 3)).astype(numpy.float32) * 0.3,
         "fc.bias": rng.standard_normal(5).astype(numpy.float32)}
    nodes = [
        helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], pads=[0, 0, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        helper.make_node("Shape", ["p"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "zero_axes"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus_one"], ["new_shape"], axis=0),
        helper.make_node("Reshape", ["p", "new_shape"], ["flat"]),
        helper.make_node("Gemm", ["flat", "onnx::Gemm_7", "fc.bias"], ["g"], transB=1, alpha=0.5),
        helper.make_node("Softmax", ["g"], ["y"], axis=1),
    ]
    constants = [numpy_helper.from_array(numpy.array(0, numpy.int64), "zero"),
                 numpy_helper.from_array(numpy.array([0], numpy.int64), "zero_axes"),
                 numpy_helper.from_array(numpy.array([-1], numpy.int64), "minus_one")]
    graph = helper.make_graph(nodes, "torch_like", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 11, 11])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 5])],
                              [numpy_helper.from_array(v, k) for k, v in w.items()] + constants)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_a_model_written_with_onnx_helper_runs_as_in_onnxruntime():
    import onnxruntime
    proto = _foreign_model()
    onnx.checker.check_model(proto)
    loaded = kusari.onnx.load(proto)
    assert sorted(n for n, _ in loaded.namedparams()) == ["/conv.bias", "/conv.weight", "/fc.bias", "/onnx__Gemm_7"]
    session = onnxruntime.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    for n in (1, 3):
        x = rng.standard_normal((n, 2, 11, 11)).astype(numpy.float32)
        numpy.testing.assert_allclose(loaded(x).array, session.run(None, {"x": x})[0], rtol=1e-4, atol=1e-6)


def test_unsupported_inputs_are_named(tmp_path):
    with pytest.raises(ValueError, match="opset 11; kusari imports opsets 13"):
        kusari.onnx.load(_foreign_model(opset=11))
    proto = _foreign_model()
    proto.graph.node[1].op_type = "Celu"
    with pytest.raises(ValueError, match="node .* is a Celu, which kusari does not import"):
        kusari.onnx.load(proto)
    with pytest.raises(FileNotFoundError, match="no ONNX model at path="):
        kusari.onnx.load(tmp_path / "missing.onnx")
    with pytest.raises(TypeError, match="takes 1 inputs \\['x'\\], got 2"):
        loaded = kusari.onnx.load(_foreign_model())
        loaded(numpy.zeros((1, 2, 11, 11), numpy.float32), numpy.zeros(1))


def _recurrent_model(kind, direction, linear_before_reset, with_bias, with_state):
    """One ONNX LSTM or GRU node (as PyTorch writes nn.LSTM / nn.GRU) over X (seq 5, batch 3, 4 features)."""
    gates, hidden, dirs = (4 if kind == "LSTM" else 3), 6, (2 if direction == "bidirectional" else 1)
    r = numpy.random.default_rng(12)
    tensors = {"W": r.standard_normal((dirs, gates * hidden, 4)), "R": r.standard_normal((dirs, gates * hidden, hidden))}
    inputs = ["X", "W", "R", "B" if with_bias else "", "", "h0" if with_state else ""]
    if with_bias:
        tensors["B"] = r.standard_normal((dirs, 2 * gates * hidden))
    if with_state:
        tensors["h0"] = r.standard_normal((dirs, 3, hidden))
    if kind == "LSTM" and with_state:
        inputs.append("c0")
        tensors["c0"] = r.standard_normal((dirs, 3, hidden))
    attrs = {"hidden_size": hidden, "direction": direction}
    if kind == "GRU":
        attrs["linear_before_reset"] = linear_before_reset
    outputs = ["Y", "Y_h"] + (["Y_c"] if kind == "LSTM" else [])
    while inputs[-1] == "":
        inputs.pop()
    node = helper.make_node(kind, inputs, outputs, **attrs)
    shapes = {"Y": [5, dirs, 3, hidden], "Y_h": [dirs, 3, hidden], "Y_c": [dirs, 3, hidden]}
    graph = helper.make_graph([node], kind.lower(), [helper.make_tensor_value_info("X", TensorProto.FLOAT, [5, 3, 4])],
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, shapes[o]) for o in outputs],
                              [numpy_helper.from_array((v * 0.5).astype(numpy.float32), k) for k, v in tensors.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])


@pytest.mark.parametrize("kind,direction,linear_before_reset,with_bias,with_state", [
    ("LSTM", "forward", 0, True, False), ("LSTM", "reverse", 0, False, True),
    ("LSTM", "bidirectional", 0, True, True), ("GRU", "forward", 1, True, False),
    ("GRU", "bidirectional", 0, True, True), ("GRU", "reverse", 1, False, True)])
def test_onnx_lstm_and_gru_nodes_run_as_in_onnxruntime(kind, direction, linear_before_reset, with_bias, with_state):
    import onnxruntime
    proto = _recurrent_model(kind, direction, linear_before_reset, with_bias, with_state)
    onnx.checker.check_model(proto)
    x = rng.standard_normal((5, 3, 4)).astype(numpy.float32)
    want = onnxruntime.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"X": x})
    loaded = kusari.onnx.load(proto)
    got = loaded(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        numpy.testing.assert_allclose(g.array, w, rtol=1e-4, atol=1e-5)
    F.sum(got[0]).backward()
    assert loaded.W.grad is not None and loaded.R.grad is not None     # the weights fine-tune
