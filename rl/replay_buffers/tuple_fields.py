"""Tuple-valued transition fields (a recurrent agent's stored states) in the replay buffers' files:
saved as one field per leaf, ``<name>/<k>`` (leaves depth first), and put back together on load.

The form of a field's tuples (a JSON tree: a list per tuple, 0 per leaf) goes into the file's
index; every tuple of one field must have that form, each leaf being what a field may hold (an
array, a scalar or None). A field that is None in a transition is None in all its leaves.
"""
import json
from typing import Any


def _form(value: Any) -> Any:
    return [_form(v) for v in value] if isinstance(value, tuple) else 0


def _leaves(value: Any) -> list:
    return [leaf for v in value for leaf in _leaves(v)] if isinstance(value, tuple) else [value]


def _count(form: Any) -> int:
    return sum(_count(f) for f in form) if isinstance(form, list) else 1


def _build(form: Any, leaves) -> Any:
    return tuple(_build(f, leaves) for f in form) if isinstance(form, list) else next(leaves)


def _valid(form: Any) -> bool:
    return form == 0 or isinstance(form, list) and all(_valid(f) for f in form)


def split_tuple_fields(owner: str, transitions: list[dict]) -> tuple[list[dict], dict]:
    """``(transitions, forms)``: copies of the transitions whose tuple-valued fields are replaced
    by their leaves, and ``{name: form}`` of those fields (empty, and the transitions themselves,
    when there are none). A field whose tuples differ in form raises a TypeError naming it."""
    names = [name for name in (transitions[0] if transitions else ())
             if any(isinstance(t[name], tuple) for t in transitions)]
    if not names:
        return transitions, {}
    forms = {}
    for name in names:
        seen = {json.dumps(_form(t[name])) for t in transitions if t[name] is not None}
        if len(seen) != 1:
            raise TypeError(f"{owner}: field {name!r} holds values of several forms "
                            f"({sorted(seen)}, a list per tuple and 0 per leaf); a tuple field "
                            "can be saved only when all its tuples have one form")
        forms[name] = json.loads(seen.pop())
    split = []
    for transition in transitions:
        transition = dict(transition)
        for name, form in forms.items():
            value = transition.pop(name)
            leaves = [None] * _count(form) if value is None else _leaves(value)
            for k, leaf in enumerate(leaves):
                transition[f"{name}/{k}"] = leaf
        split.append(transition)
    return split, forms


def join_tuple_fields(owner: str, filename, forms: Any, transitions: list[dict]) -> list[dict]:
    """The transitions with the leaf fields of ``forms`` (as :func:`split_tuple_fields` wrote them)
    put back together, in place; a malformed form or a missing leaf raises a ValueError naming
    ``filename``."""
    if not isinstance(forms, dict) or not all(
            isinstance(form, list) and _valid(form) for form in forms.values()):
        raise ValueError(f"{owner}: {filename} has malformed tuple forms in its index: {forms!r}")
    for transition in transitions:
        for name, form in forms.items():
            keys = [f"{name}/{k}" for k in range(_count(form))]
            missing = [key for key in keys if key not in transition]
            if missing:
                raise ValueError(f"{owner}: {filename} lacks the fields {missing} of the tuple "
                                 f"field {name!r}")
            leaves = [transition.pop(key) for key in keys]
            transition[name] = (None if all(leaf is None for leaf in leaves)
                                else _build(form, iter(leaves)))
    return transitions
