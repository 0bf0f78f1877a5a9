"""einsum: Einstein summation over subscripted operands (``numpy.einsum``), differentiable."""
import string

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.utils.type_check import InvalidType


def _unique(sub):
    return "".join(dict.fromkeys(sub))


def _parse(subscripts, shapes):
    """Explicit per-operand subscripts and output subscript, with '...' spelled out as letters."""
    if not isinstance(subscripts, str):
        raise TypeError(f"einsum: the first operand must be the subscripts string, got "
                        f"{type(subscripts).__name__}")
    spec = subscripts.replace(" ", "")
    in_part, arrow, out = spec.partition("->")
    subs = in_part.split(",")
    if len(subs) != len(shapes):
        raise ValueError(f"einsum: '{subscripts}' names {len(subs)} operand(s) but "
                         f"{len(shapes)} were given")
    for s in subs + [out]:
        if not all(c in string.ascii_letters for c in s.replace("...", "")) \
                or s.count("...") > 1:
            raise ValueError(f"einsum: invalid subscripts '{s}' in '{subscripts}' (use letters "
                             "and at most one '...')")
    spare = [c for c in string.ascii_letters if c not in spec]
    n_ell = 0
    for i, (s, shape) in enumerate(zip(subs, shapes)):
        named = len(s.replace("...", ""))
        if ("..." in s and named > len(shape)) or ("..." not in s and named != len(shape)):
            raise InvalidType(None, None, f"einsum: subscripts '{s}' do not fit operand {i} of shape {shape}")
        if "..." in s:
            n_ell = max(n_ell, len(shape) - named)
    ell = "".join(spare[:n_ell])
    # An operand with fewer '...' axes takes the trailing ones (NumPy aligns them on the right).
    subs = [s.replace("...", ell[n_ell - (len(shape) - len(s) + 3):]) for s, shape in zip(subs, shapes)]
    if arrow:
        if n_ell and "..." not in out:
            raise InvalidType(None, None, f"einsum: '{subscripts}' has operands with '...' dimensions but "
                                          "no '...' in the output")
        out = out.replace("...", ell)
        for c in out:
            if out.count(c) > 1 or not any(c in s for s in subs):
                raise InvalidType(None, None, f"einsum: output subscript '{c}' in '{subscripts}' is repeated "
                                              "or appears in no operand")
    else:
        letters = "".join(s.replace("...", "") for s in in_part.split(","))
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return subs, out


def _sizes(subs, shapes):
    """Each letter's size, where operands may have 1 for a size another operand has larger."""
    sizes = {}
    for i, (s, shape) in enumerate(zip(subs, shapes)):
        for c, n in zip(s, shape):
            m = sizes.setdefault(c, n)
            if m != n and 1 not in (m, n):
                raise InvalidType(None, None, f"einsum: subscript '{c}' has size {m} in one operand and {n} in "
                                              f"operand {i} (shapes {shapes})")
            sizes[c] = n if m == 1 else m
    return sizes


class EinSum(FunctionNode):
    """``numpy.einsum`` with explicit subscripts; operand sizes already agree (no 1-broadcasting)."""

    def __init__(self, in_subs, out_sub):
        self._in_subs = tuple(in_subs)
        self._out_sub = out_sub

    def forward(self, inputs):
        for i, x in enumerate(inputs):
            utils.check_float("einsum", f"operand {i}", x)
        utils.check_same_dtype("einsum", **{f"operand{i}": x for i, x in enumerate(inputs)})
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        spec = ",".join(self._in_subs) + "->" + self._out_sub
        return utils.force_array(xp.einsum(spec, *inputs), inputs[0].dtype),

    def backward(self, indexes, grad_outputs):
        xs = self.get_retained_inputs()
        gy = grad_outputs[0]
        return tuple(self._grad(i, xs, gy) for i in indexes)

    def _grad(self, i, xs, gy):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        sub, x = self._in_subs[i], xs[i]
        others = [(gy, self._out_sub)] + [(xj, s) for j, (xj, s) in enumerate(zip(xs, self._in_subs))
                                          if j != i]
        # The gradient over x's distinct letters is the einsum of gy with the other operands;
        # letters found nowhere else were summed in the forward pass, so it is constant along them.
        uniq = _unique(sub)
        sizes = dict(zip(sub, x.shape))
        found = "".join(c for c in uniq if any(c in s for _, s in others))
        g = EinSum([s for _, s in others], found).apply([v for v, _ in others])[0]
        if found != uniq:
            g = broadcast_to(reshape(g, tuple(sizes[c] if c in found else 1 for c in uniq)),
                             tuple(sizes[c] for c in uniq))
        if uniq == sub:
            return g
        # A repeated letter read a diagonal: put the gradient back on that diagonal, zeros elsewhere.
        first = [sub.index(c) == k for k, c in enumerate(sub)]
        g = broadcast_to(reshape(g, tuple(n if f else 1 for n, f in zip(x.shape, first))), x.shape)
        return g * _diagonal_mask(backend.get_array_module(x.array), sub, x.shape, x.dtype)


def _diagonal_mask(xp, sub, shape, dtype):
    mask = xp.ones(shape, dtype=bool)
    for k, c in enumerate(sub):
        p = sub.index(c)
        if p != k:
            ip = xp.arange(shape[p]).reshape((-1,) + (1,) * (len(shape) - p - 1))
            ik = xp.arange(shape[k]).reshape((-1,) + (1,) * (len(shape) - k - 1))
            mask = mask & (ip == ik)
    return mask.astype(dtype)


def _from_sublists(operands):
    """NumPy's other form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as ``('ab,bc->ac', a, b)``."""
    import string

    def letters(sublist):
        try:
            return "".join("..." if s is Ellipsis else string.ascii_letters[s] for s in sublist)
        except (TypeError, IndexError):
            raise ValueError(f"einsum: a subscript list holds ints in [0, 52) or Ellipsis, got {sublist!r}") from None
    pairs, out = (operands, None) if len(operands) % 2 == 0 else (operands[:-1], operands[-1])
    if not all(isinstance(s, (list, tuple)) for s in pairs[1::2] + ((out,) if out is not None else ())):
        raise TypeError("einsum: the first operand must be the subscripts string, or operands and subscript "
                        f"lists must alternate (NumPy's sublist form); got {type(operands[0]).__name__} first")
    subscripts = ",".join(letters(s) for s in pairs[1::2])
    if out is not None:
        subscripts += "->" + letters(out)
    return (subscripts,) + tuple(pairs[0::2])


def einsum(*operands):
    """Einstein summation: ``einsum('ij,jk->ik', a, b)`` as ``numpy.einsum``, differentiable.

    NumPy's sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` is accepted too.

    ``operands[0]`` is the subscripts string (letters, '...' for broadcast axes, implicit output
    when '->' is absent); the rest are float arrays of one dtype. Returns the output's shape.
    """
    from kusari.functions.array.broadcast import broadcast_to
    if not operands:
        raise ValueError("einsum: needs a subscripts string and at least one operand")
    if not isinstance(operands[0], str):
        operands = _from_sublists(operands)
    subscripts, xs = operands[0], operands[1:]
    if not xs:
        raise ValueError("einsum: needs at least one operand after the subscripts")
    shapes = [tuple(x.shape) for x in xs]
    subs, out = _parse(subscripts, shapes)
    sizes = _sizes(subs, shapes)
    xs = [broadcast_to(x, tuple(sizes[c] for c in s)) for x, s in zip(xs, subs)]
    return EinSum(subs, out).apply(xs)[0]
