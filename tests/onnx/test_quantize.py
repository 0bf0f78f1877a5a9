"""kusari.onnx.quantize: dynamic int8 for linear models, static QDQ S8S8 calibrated from a kusari iterator."""
import os

import numpy
import onnx
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
import kusari.onnx
from kusari.iterators import SerialIterator

rng = numpy.random.default_rng(9)


def _int8_initializers(path):
    return [t for t in onnx.load(path).graph.initializer if t.data_type == onnx.TensorProto.INT8]


def test_dynamic_quantization_of_a_linear_model(tmp_path, check):
    model = kusari.Sequential(L.Linear(64, 256), F.relu, L.Linear(256, 10))
    x = rng.standard_normal((32, 64)).astype(numpy.float32)
    fp32, int8 = tmp_path / "mlp.onnx", tmp_path / "mlp.int8.onnx"
    kusari.onnx.export(model, x[:2], filename=fp32, dynamic_axes={"Input_0": [0]})
    assert kusari.onnx.quantize(fp32, int8) == str(int8)
    proto = onnx.load(int8)
    onnx.checker.check_model(proto)
    assert {n.op_type for n in proto.graph.node} & {"DynamicQuantizeLinear", "MatMulInteger"}
    weights = [t for t in _int8_initializers(int8) if t.name.endswith("_quantized")]
    assert sum(numpy.prod(t.dims) for t in weights) == 64 * 256 + 256 * 10
    # 4x less for the weights; per-channel scales and zero points take some back on a model this small
    assert os.path.getsize(fp32) / os.path.getsize(int8) > 3
    import onnxruntime
    y8 = onnxruntime.InferenceSession(str(int8), providers=["CPUExecutionProvider"]).run(None, {"Input_0": x})[0]
    with kusari.using_config("train", False):
        y = model(x).array
    assert numpy.abs(y8 - y).max() < 0.05 * numpy.abs(y).max()


class _Tagger(kusari.Chain):
    """A recurrent model: embedding, a two-layer LSTM over equal-length sequences, a linear read-out."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(20, 16)
            self.lstm = L.NStepLSTM(2, 16, 32, 0.0)
            self.out = L.Linear(32, 5)

    def forward(self, ids):
        hy, cy, ys = self.lstm(None, None, list(F.separate(self.embed(ids), axis=0)))
        return self.out(F.concat(ys, axis=0))


def test_dynamic_quantization_of_a_recurrent_model(tmp_path):
    model = _Tagger()
    ids = numpy.random.default_rng(1).integers(0, 20, (3, 7)).astype(numpy.int32)
    fp32, int8 = tmp_path / "tagger.onnx", tmp_path / "tagger.int8.onnx"
    kusari.onnx.export(model, ids, filename=fp32)
    kusari.onnx.quantize(fp32, int8)
    proto = onnx.load(int8)
    assert sum(n.op_type in ("MatMulInteger", "DynamicQuantizeMatMul") for n in proto.graph.node) >= 4
    import onnxruntime
    y8 = onnxruntime.InferenceSession(str(int8), providers=["CPUExecutionProvider"]).run(None, {"Input_0": ids})[0]
    with kusari.using_config("train", False):
        y = model(ids).array
    assert numpy.abs(y8 - y).mean() < 0.02 * numpy.abs(y).max()
    assert (y8.argmax(axis=1) == y.argmax(axis=1)).mean() >= 0.9


class _ConvNet(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(1, 8, 3, pad=1)
            self.bn = L.BatchNormalization(8)
            self.fc = L.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        return self.fc(F.max_pooling_2d(F.relu(self.bn(self.conv(x))), 2))


def test_static_qdq_quantization_calibrated_from_an_iterator(tmp_path):
    model = _ConvNet()
    images = numpy.random.default_rng(0).uniform(0, 1, (40, 1, 8, 8)).astype(numpy.float32)
    labels = numpy.zeros(40, numpy.int32)
    fp32, int8 = tmp_path / "cnn.onnx", tmp_path / "cnn.int8.onnx"
    kusari.onnx.export(model, images[:2], filename=fp32, dynamic_axes={"Input_0": [0]})
    batches = SerialIterator(list(zip(images, labels)), 10, repeat=True, shuffle=False)
    kusari.onnx.quantize(fp32, int8, calibration=batches, max_batches=4)
    assert batches.epoch_detail == pytest.approx(1.0)   # four batches of ten read from a repeating iterator
    proto = onnx.load(int8)
    onnx.checker.check_model(proto)
    ops = [n.op_type for n in proto.graph.node]
    assert "QuantizeLinear" in ops and "DequantizeLinear" in ops
    types = {t.name: t.data_type for t in proto.graph.initializer}
    activation_zeros = [n.input[2] for n in proto.graph.node if n.op_type == "QuantizeLinear"]
    assert activation_zeros and all(types[z] == onnx.TensorProto.INT8 for z in activation_zeros)   # S8 activations
    assert any(t.name.endswith("W_quantized") for t in _int8_initializers(int8))                   # S8 weights
    import onnxruntime
    y8 = onnxruntime.InferenceSession(str(int8), providers=["CPUExecutionProvider"]).run(None, {"Input_0": images})[0]
    with kusari.using_config("train", False):
        y = model(images).array
    # 8-bit steps through three layers: small on average, the class mostly kept
    assert numpy.abs(y8 - y).mean() < 0.03 * numpy.abs(y).max()
    assert (y8.argmax(axis=1) == y.argmax(axis=1)).mean() >= 0.9


def test_static_qoperator_quantization_stores_integer_ops(tmp_path):
    """quant_format='QOperator': QLinearConv and QGemm with int32 biases, no per-channel bias scales or zero points,
    so a smaller file than QDQ's for the same int8 weights and the same outputs up to rounding."""
    model = _ConvNet()
    images = numpy.random.default_rng(0).uniform(0, 1, (40, 1, 8, 8)).astype(numpy.float32)
    fp32 = tmp_path / "cnn.onnx"
    kusari.onnx.export(model, images[:2], filename=fp32, dynamic_axes={"Input_0": [0]})
    paths = {}
    for quant_format in ("QDQ", "QOperator"):
        paths[quant_format] = tmp_path / f"cnn.{quant_format}.onnx"
        kusari.onnx.quantize(fp32, paths[quant_format], quant_format=quant_format,
                             calibration=SerialIterator(list(images), 10, repeat=False, shuffle=False))
    proto = onnx.load(paths["QOperator"])
    onnx.checker.check_model(proto)
    ops = [n.op_type for n in proto.graph.node]
    assert {"QLinearConv", "QGemm"} <= set(ops) and ops.count("DequantizeLinear") == 1   # the output only
    biases = [t for t in proto.graph.initializer if t.data_type == onnx.TensorProto.INT32]
    assert sorted(int(numpy.prod(t.dims)) for t in biases) == [5, 8]
    assert os.path.getsize(paths["QOperator"]) < os.path.getsize(paths["QDQ"])
    import onnxruntime
    y8 = {k: onnxruntime.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"Input_0": images})[0]
          for k, p in paths.items()}
    with kusari.using_config("train", False):
        y = model(images).array
    assert numpy.abs(y8["QOperator"] - y).mean() < 0.03 * numpy.abs(y).max()
    assert numpy.abs(y8["QOperator"] - y8["QDQ"]).max() < 0.05 * numpy.abs(y).max()


def test_calibration_batches_must_fit_the_model(tmp_path):
    path = tmp_path / "fixed.onnx"
    kusari.onnx.export(_ConvNet(), numpy.zeros((1, 1, 8, 8), numpy.float32), filename=path)   # batch fixed at 1
    batches = SerialIterator(list(numpy.zeros((4, 1, 8, 8), numpy.float32)), 2, repeat=False)
    with pytest.raises(ValueError, match="gives 'Input_0' the shape \\(2, 1, 8, 8\\), but the model takes \\(1, 1, 8, 8\\)"):
        kusari.onnx.quantize(path, tmp_path / "out.onnx", calibration=batches)


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="quantize: no ONNX model at path="):
        kusari.onnx.quantize(tmp_path / "missing.onnx", tmp_path / "out.onnx")
    path = tmp_path / "m.onnx"
    kusari.onnx.export(kusari.Sequential(L.Linear(3, 2)), numpy.zeros((1, 3), numpy.float32), filename=path)
    with pytest.raises(TypeError, match="calibration must be None .* got list"):
        kusari.onnx.quantize(path, tmp_path / "out.onnx", calibration=[numpy.zeros((1, 3), numpy.float32)])
    with pytest.raises(ValueError, match="max_batches must be a positive int"):
        kusari.onnx.quantize(path, tmp_path / "out.onnx", max_batches=0)
    with pytest.raises(ValueError, match="calibrate_method='Best'"):
        kusari.onnx.quantize(path, tmp_path / "out.onnx", calibrate_method="Best")
    with pytest.raises(ValueError, match="quant_format='QOp'; choose from"):
        kusari.onnx.quantize(path, tmp_path / "out.onnx", quant_format="QOp")
    with pytest.raises(ValueError, match="quant_format='QOperator' applies to static quantization"):
        kusari.onnx.quantize(path, tmp_path / "out.onnx", quant_format="QOperator")
