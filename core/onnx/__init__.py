"""kusari.onnx: export to ONNX, verification in ONNX Runtime, int8 quantization and ONNX import (extra ``[onnx]``).

``export(model, args)`` traces one forward call and writes an ONNX ``ModelProto`` (onnx-chainer's
signature); ``export_testcase`` adds the input and output protobufs; ``quantize`` runs ONNX
Runtime's int8 quantization; ``load(path)`` turns an ONNX file back into a fine-tunable Link;
``coverage()`` says which of ``kusari.functions`` export; ``export_detector`` adds SSD's and YOLO's box
decoding and NonMaxSuppression. ``import kusari`` never imports this package.
"""
from kusari.utils.extras import require_extra

require_extra("onnx", ["onnx", "onnxruntime"])

from kusari.onnx.converters import coverage, register_converter  # NOQA: E402
from kusari.onnx.export import ExportError, export, export_testcase  # NOQA: E402
from kusari.onnx.detection import export_detector  # NOQA: E402
from kusari.onnx.opsets import supported_opsets  # NOQA: E402
from kusari.onnx.quantize import quantize  # NOQA: E402
from kusari.onnx.importer import ONNXGraph, load  # NOQA: E402

__all__ = ["ExportError", "ONNXGraph", "coverage", "export", "export_detector", "export_testcase", "load", "quantize",
           "register_converter", "supported_opsets"]
