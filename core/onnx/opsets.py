"""The ONNX opsets kusari exports: 13 up to the newest that both the installed onnx and ONNX Runtime support."""
import functools

MIN_OPSET = 13   # ReduceSum/Split/Squeeze take axes as inputs from 13 on; older opsets are not emitted


@functools.lru_cache(maxsize=None)
def supported_opsets() -> range:
    """``range(13, newest + 1)``: the opsets ``export`` accepts; the last one is the default."""
    import onnx
    newest = onnx.defs.onnx_opset_version()
    while newest > MIN_OPSET and not _runtime_loads(newest):
        newest -= 1
    return range(MIN_OPSET, newest + 1)


def _runtime_loads(opset: int) -> bool:
    """Whether ONNX Runtime accepts a one-Identity model of this opset (it has no query for its range)."""
    import onnxruntime
    from onnx import TensorProto, helper
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "probe",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    model = make_model(graph, opset)
    try:
        onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception:   # ONNX Runtime raises its own Fail/InvalidGraph types for an unknown opset
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
