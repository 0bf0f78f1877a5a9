"""The ONNX opsets kusari exports: 13 up to the newest that both the installed onnx and ONNX Runtime support."""
import functools

MIN_OPSET = 13   # ReduceSum/Split/Squeeze take axes as inputs from 13 on; older opsets are not emitted


@functools.lru_cache(maxsize=None)
def supported_opsets() -> range:
    """``range(13, newest + 1)``: the opsets ``export`` accepts; the last one is the default."""
    import onnx
    newest = onnx.defs.onnx_opset_version()
    while newest > MIN_OPSET and not _runtime_runs(newest):
        newest -= 1
    return range(MIN_OPSET, newest + 1)


def _runtime_runs(opset: int) -> bool:
    """Whether ONNX Runtime runs a QuantizeLinear -> DequantizeLinear model of this opset.

    ONNX Runtime has no query for its range, and it loads opsets whose newest kernels it lacks
    (1.32 loads opset 28 but has no QuantizeLinear-28): the int8 pair is what ``quantize`` emits.
    """
    import numpy
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper
    nodes = [helper.make_node("QuantizeLinear", ["x", "scale", "zero"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["y"])]
    constants = [numpy_helper.from_array(numpy.float32(0.5), "scale"), numpy_helper.from_array(numpy.int8(0), "zero")]
    graph = helper.make_graph(nodes, "probe", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], constants)
    try:
        session = onnxruntime.InferenceSession(make_model(graph, opset).SerializeToString(),
                                               providers=["CPUExecutionProvider"])
        session.run(None, {"x": numpy.ones(1, numpy.float32)})
    except Exception:   # ONNX Runtime raises its own Fail/NotImplemented types for what it lacks
        return False
    return True


def make_model(graph, opset: int):
    """A ModelProto of ``graph`` importing the default domain at ``opset``, at the lowest IR version that allows it."""
    from onnx import helper
    imports = [helper.make_opsetid("", opset)]
    model = helper.make_model(graph, opset_imports=imports, producer_name="kusari")
    model.ir_version = helper.find_min_ir_version_for(imports)
    return model


def check_opset(fname: str, opset_version) -> int:
    """``opset_version`` validated (None means the newest supported)."""
    opsets = supported_opsets()
    if opset_version is None:
        return opsets[-1]
    if not isinstance(opset_version, int) or opset_version not in opsets:
        raise ValueError(f"{fname}: opset_version={opset_version!r} is not supported; kusari exports opsets "
                         f"{opsets[0]} to {opsets[-1]} (the newest that the installed onnx and onnxruntime "
                         "both support)")
    return opset_version
