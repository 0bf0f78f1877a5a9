"""The converter registry: one converter per kusari FunctionNode class, grouped by op family in this package.

A converter is ``convert(ctx, node) -> output names``: it reads the node's attributes (as they are
after its forward ran) and the :class:`kusari.onnx.context.Context`, adds ONNX nodes through
``ctx.add`` and returns one value name per output of the kusari node.
"""
import importlib

import kusari.functions

_FAMILIES = ("activation", "array", "connection", "loss", "math", "normalization", "pooling", "util")
_converters = {}    # FunctionNode class -> converter
_functions = {}     # name in kusari.functions -> the FunctionNode classes it applies
_loaded = False


def register_converter(*node_classes, functions=()):
    """Decorator: ``convert(ctx, node)`` is the ONNX form of ``node_classes``.

    ``functions`` names the ``kusari.functions`` entries that apply only these classes (and
    classes converted elsewhere), for ``coverage()``.
    """
    def decorate(convert):
        for cls in node_classes:
            _converters[cls] = convert
        for name in functions:
            _functions.setdefault(name, set()).update(node_classes)
        return convert
    return decorate


# Functions built only from ops the families convert (dropout applies none outside training, which is
# what export traces by default); tests/onnx/converters/test_composites.py exports each of them.
register_converter(functions=("dropout", "mean", "average", "bias", "scale", "n_step_lstm", "n_step_bilstm",
                              "n_step_gru", "n_step_bigru", "n_step_rnn", "n_step_birnn"))(None)


def _load_families() -> None:
    global _loaded
    if not _loaded:
        for family in _FAMILIES:
            importlib.import_module(f"kusari.onnx.converters.{family}")
        _loaded = True


def find_converter(node, external=None):
    """The converter of ``node``: from ``external`` (keyed by class or class name) first, else registered; or None."""
    _load_families()
    cls = type(node)
    if external:
        for key in (cls, cls.__name__):
            if key in external:
                return external[key]
    return _converters.get(cls)


def coverage() -> dict:
    """``{name: exports}`` for every public function of ``kusari.functions``, sorted by name.

    A function exports when every FunctionNode it applies has a converter (proven per family by
    tests/onnx/converters, which export each listed function and run it in ONNX Runtime).
    """
    _load_families()
    names = sorted(name for name in dir(kusari.functions)
                   if not name.startswith("_") and callable(getattr(kusari.functions, name))
                   and not isinstance(getattr(kusari.functions, name), type))
    return {name: name in _functions and all(cls in _converters for cls in _functions[name])
            for name in names}


def declared_functions() -> dict:
    """``{function name: FunctionNode classes}`` as the converter modules declare them (for tests and docs)."""
    _load_families()
    return {name: tuple(sorted(classes, key=lambda c: c.__name__)) for name, classes in _functions.items()}


def coverage_markdown() -> str:
    """``coverage()`` as the Markdown table of docs/onnx.md."""
    table = coverage()
    rows = []
    for label, exported in (("exports", True), ("not yet", False)):
        names = [name for name, ok in table.items() if ok is exported]
        rows.append(f"| {label} ({len(names)}) | " + ", ".join(f"`{name}`" for name in names) + " |")
    return "| `kusari.functions` | functions |\n|---|---|\n" + "\n".join(rows) + "\n"
