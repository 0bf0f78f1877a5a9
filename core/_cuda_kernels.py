"""Fused CUDA kernels as CuPy kernel sources: compiled on first use, CuPy imported only then.

An op that has a fused GPU path defines its kernel beside itself with :class:`Elementwise` (the
body of a ``cupy.ElementwiseKernel``) or :class:`Raw` (an ``extern "C" __global__`` function for
``cupy.RawKernel``). Each definition is registered, so :func:`translation_unit` can hand every
kernel to ``nvcc`` on a machine without a GPU: the CPU test compiles them all, which checks their
syntax and types, and a gpu-marked test compares each with its NumPy twin.
"""
from __future__ import annotations

import re

_REGISTRY: list = []   # every kernel defined, in definition order

# CuPy's type names in kernel signatures, as C types (``T`` and other single letters stay templates).
_C_TYPES = {"float16": "__half", "float32": "float", "float64": "double", "int32": "int",
            "int64": "long long", "bool": "bool", "uint64": "unsigned long long"}
_PARAM = re.compile(r"^(raw\s+)?(\w+)\s+(\w+)$")


def _params(text: str, kernel: str) -> list:
    """``'T x, raw int32 t'`` as ``[(raw, type, name), ...]``."""
    out = []
    for item in filter(None, (p.strip() for p in text.split(","))):
        m = _PARAM.match(item)
        if m is None:
            raise ValueError(f"_cuda_kernels: kernel {kernel!r} has a malformed parameter {item!r} "
                             f"(expected '[raw] TYPE NAME')")
        out.append((bool(m.group(1)), m.group(2), m.group(3)))
    return out


class Elementwise:
    """A ``cupy.ElementwiseKernel`` built on its first call; ``operation`` may use the index ``i``."""

    __slots__ = ("name", "in_params", "out_params", "operation", "preamble", "_kernel")

    def __init__(self, name: str, in_params: str, out_params: str, operation: str, preamble: str = ""):
        self.name, self.in_params, self.out_params = name, in_params, out_params
        self.operation, self.preamble = operation, preamble
        self._kernel = None
        _params(in_params, name), _params(out_params, name)   # malformed signatures fail at import
        _REGISTRY.append(self)

    def __call__(self, *args, **kwargs):
        kernel = self._kernel
        if kernel is None:
            import cupy
            kernel = self._kernel = cupy.ElementwiseKernel(
                self.in_params, self.out_params, self.operation, self.name, preamble=self.preamble)
        return kernel(*args, **kwargs)

    def signature(self):
        """``(letters, args, loads)``: the template's type letters, the C parameters (every array and
        scalar as a pointer) and the per-element loads that bind the names the body uses."""
        params = _params(self.in_params, self.name) + _params(self.out_params, self.name)
        n_in = len(_params(self.in_params, self.name))
        letters = sorted({t for _, t, _ in params if t not in _C_TYPES})
        args, loads = [], []
        for k, (raw, typ, name) in enumerate(params):
            ctype = _C_TYPES.get(typ, typ)
            const = "const " if k < n_in else ""
            if raw:
                args.append(f"{const}{ctype}* {name}")
            else:
                args.append(f"{const}{ctype}* _raw_{name}")
                loads.append(f"{const}{ctype}& {name} = _raw_{name}[i];" if k >= n_in
                             else f"const {ctype} {name} = _raw_{name}[i];")
        return letters, args, loads

    def cuda_source(self) -> str:
        """A stand-alone CUDA function with this body, templated on the signature's type letters:
        what CuPy generates, with plain pointers in place of CuPy's CArray and index types."""
        letters, args, loads = self.signature()
        template = f"template <{', '.join('typename ' + t for t in letters)}>\n" if letters else ""
        return (f"{self.preamble}\n{template}__global__ void {self.name}({', '.join(args)}, long long _n) {{\n"
                f"  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < _n;\n"
                f"       i += (long long)gridDim.x * blockDim.x) {{\n"
                f"    {' '.join(loads)}\n    {self.operation};\n  }}\n}}\n"
                + "".join(f"template __global__ void {self.name}<{', '.join([c] * len(letters))}>"
                          f"({', '.join(instantiated(a, letters, c) for a in args)}, long long);\n"
                          for c in (("float", "double") if letters else ())))


def instantiated(arg: str, letters: list, ctype: str) -> str:
    """The type of parameter ``arg`` with every type letter replaced by ``ctype``."""
    typ = arg.rpartition(" ")[0]     # the parameter's type, without its name
    return re.sub(r"\b(" + "|".join(letters) + r")\b", ctype, typ)


class Raw:
    """A ``cupy.RawKernel`` of an ``extern "C" __global__`` function named ``name`` in ``code``."""

    __slots__ = ("name", "code", "_kernel")

    def __init__(self, name: str, code: str):
        if f" {name}(" not in code:
            raise ValueError(f"_cuda_kernels: the code of kernel {name!r} defines no function {name}(")
        self.name, self.code, self._kernel = name, code, None
        _REGISTRY.append(self)

    def __call__(self, grid, block, args, shared_mem: int = 0):
        kernel = self._kernel
        if kernel is None:
            import cupy
            kernel = self._kernel = cupy.RawKernel(self.code, self.name)
        kernel(grid, block, args, shared_mem=shared_mem)

    def cuda_source(self) -> str:
        return self.code


def registered() -> list:
    """Every kernel defined so far (import the ops' modules first)."""
    return list(_REGISTRY)


def translation_unit(kernels=None) -> str:
    """One CUDA source holding ``kernels`` (default: all registered), for ``nvcc --ptx``."""
    kernels = registered() if kernels is None else kernels
    return "#include <cuda_fp16.h>\n\n" + "\n".join(
        f"// ---- {k.name}\nnamespace k{i} {{\n{k.cuda_source()}}}\n" if isinstance(k, Elementwise)
        else f"// ---- {k.name}\n{k.cuda_source()}\n" for i, k in enumerate(kernels))


def block_count(n: int, block: int = 256, cap: int = 65535) -> int:
    """Blocks for ``n`` threads of ``block`` each (grid-stride loops cover the rest beyond ``cap``)."""
    return max(1, min(cap, (n + block - 1) // block))
