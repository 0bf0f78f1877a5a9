"""int8 quantization of an exported model through ONNX Runtime's own tools (onnxruntime.quantization)."""
import os
import tempfile

import numpy


def _calibration_reader(model_path, calibration, max_batches, converter):
    """An ONNX Runtime CalibrationDataReader feeding the graph's inputs from a kusari iterator's batches."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader

    graph = onnx.load(model_path, load_external_data=False).graph
    initializers = {t.name for t in graph.initializer}
    inputs = [i for i in graph.input if i.name not in initializers]
    names = [i.name for i in inputs]
    # fixed sizes (None for a dynamic axis) of each input, to name a mismatch before ONNX Runtime does
    fixed = [[d.dim_value if d.HasField("dim_value") else None for d in i.type.tensor_type.shape.dim]
             for i in inputs]

    class KusariIteratorReader(CalibrationDataReader):
        def __init__(self):
            self.batches = 0

        def get_next(self):
            if max_batches is not None and self.batches >= max_batches:
                return None
            try:
                batch = next(calibration)
            except StopIteration:
                return None
            arrays = converter(batch)
            arrays = arrays if isinstance(arrays, (tuple, list)) else (arrays,)
            if len(arrays) < len(names):
                raise ValueError(f"quantize: a calibration batch gives {len(arrays)} arrays for the model's "
                                 f"{len(names)} inputs {names}")
            self.batches += 1
            # a (x, t) batch of a labelled dataset feeds x: the model's inputs come first
            feed = {name: numpy.asarray(a) for name, a in zip(names, arrays)}
            for (name, a), dims in zip(feed.items(), fixed):
                if len(dims) != a.ndim or any(d is not None and d != n for d, n in zip(dims, a.shape)):
                    raise ValueError(f"quantize: calibration batch {self.batches} gives {name!r} the shape "
                                     f"{a.shape}, but the model takes {tuple(d or '?' for d in dims)}; export "
                                     "with dynamic_axes for the batch axis, or calibrate in batches of that size")
            return feed

    return KusariIteratorReader()


def quantize(path, out, calibration=None, per_channel=True, max_batches=None, converter=None,
             op_types=None, calibrate_method="MinMax", quant_format="QDQ"):
    """Quantize the ONNX model at ``path`` to int8 and write it to ``out``.

    ``quant_pre_process`` (shape inference and graph optimization) runs first. Then:

    - ``calibration=None``: dynamic quantization (int8 weights, activations quantized at run time),
      for linear and recurrent models (MatMul, Gather, LSTM, ...).
    - ``calibration=iterator`` (a kusari iterator over the inputs or ``(x, t)`` examples, e.g.
      ``SerialIterator(data, 32, repeat=False)``): static quantization, int8 activations and
      weights (S8S8), with activation ranges measured on the iterator's batches; for convolutional models.

    Parameters
    ----------
    path, out : str or path
        the float model, and where the int8 model goes.
    per_channel : bool
        one scale per output channel of each weight (static) or per column (dynamic).
    max_batches : int, optional
        stop calibrating after this many batches (needed for a repeating iterator).
    converter : callable, optional
        batch -> arrays in the order of the graph's inputs (default ``kusari.dataset.concat_examples``).
    op_types : list of str, optional
        ONNX op types to quantize (default: ONNX Runtime's choice for the mode).
    calibrate_method : str
        ``"MinMax"``, ``"Entropy"``, ``"Percentile"`` or ``"Distribution"`` (static only).
    quant_format : str
        static only: ``"QDQ"`` (float ops between QuantizeLinear/DequantizeLinear pairs, which ONNX
        Runtime fuses into integer kernels when it loads the file) or ``"QOperator"`` (the integer ops
        themselves, QLinearConv and com.microsoft's QGemm, with int32 biases). QOperator files are
        smaller by the per-channel bias scales and zero points that QDQ stores (LeNet-5 per channel:
        3.64x smaller than float32 instead of 3.38x), but ONNX Runtime's x64 kernels run S8S8
        QOperator graphs slower than fused QDQ ones (it warns so).

    Returns the path written.
    """
    from onnxruntime.quantization import (CalibrationMethod, QuantFormat, QuantType, quantize_dynamic,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    path, out = os.fspath(path), os.fspath(out)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"quantize: no ONNX model at path={path!r}")
    if calibration is not None and not hasattr(calibration, "__next__"):
        raise TypeError(f"quantize: calibration must be None (dynamic) or an iterator of batches (static), "
                        f"got {type(calibration).__name__}")
    if max_batches is not None and (not isinstance(max_batches, int) or max_batches < 1):
        raise ValueError(f"quantize: max_batches must be a positive int or None, got {max_batches!r}")
    formats = {"QDQ": QuantFormat.QDQ, "QOperator": QuantFormat.QOperator}
    if quant_format not in formats:
        raise ValueError(f"quantize: quant_format={quant_format!r}; choose from {sorted(formats)}")
    if calibration is None and quant_format != "QDQ":
        raise ValueError(f"quantize: quant_format={quant_format!r} applies to static quantization (calibration="
                         "an iterator); dynamic quantization writes its integer ops itself")
    methods = {m.name: m for m in CalibrationMethod}
    if calibrate_method not in methods:
        raise ValueError(f"quantize: calibrate_method={calibrate_method!r}; choose from {sorted(methods)}")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = os.path.join(tmp, "prepared.onnx")
        # ONNX's own shape inference covers exported graphs; the symbolic one would need sympy
        quant_pre_process(path, prepared, skip_symbolic_shape=True)
        if calibration is None:
            quantize_dynamic(prepared, out, op_types_to_quantize=op_types, per_channel=per_channel,
                             weight_type=QuantType.QInt8)
        else:
            if converter is None:
                from kusari.dataset import concat_examples
                converter = concat_examples
            reader = _calibration_reader(prepared, calibration, max_batches, converter)
            quantize_static(prepared, out, reader, quant_format=formats[quant_format], op_types_to_quantize=op_types,
                            per_channel=per_channel, activation_type=QuantType.QInt8,
                            weight_type=QuantType.QInt8, calibrate_method=methods[calibrate_method],
                            extra_options={"ActivationSymmetric": False, "WeightSymmetric": True})
    return out
