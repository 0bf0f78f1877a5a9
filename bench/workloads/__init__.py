"""The benchmark workloads: one module each, with a kusari, a torch and a chainer variant side by side.

A workload module defines ``DESCRIPTION`` (the row label), ``OPS_PER_STEP`` (a step's time is divided by it, for
per-op rows), ``PARAMS`` (tunable sizes with their defaults, overridable with ``--set WORKLOAD.KEY=VALUE``) and
``setup_kusari`` / ``setup_torch`` / ``setup_chainer``: each takes the params as keywords, builds the model and data
untimed, and returns the zero-argument step to time. Frameworks are imported inside the setup functions only, so a
worker imports no framework but its own.

``OPTIONAL_FRAMEWORKS`` run only when ``--frameworks`` names them (their environments are large): a workload may
define ``setup_torchvision`` (PyPI's torch and torchvision, for the vision models); one that does not reports
that it has no such variant.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

#: Every workload, in the order the table lists them.
WORKLOADS = ("add_1elem", "add_chain10", "mlp_tiny", "mlp_tiny_static", "mlp_tiny_static_forward",
             "mlp_mnist", "lenet5", "conv3x3", "lstm_lm",
             "resnet20", "resnet50", "resnet50_inference", "dqn", "vision_resnet50_predict",
             "vision_fpn_predict")
FRAMEWORKS = ("kusari", "torch", "chainer")
OPTIONAL_FRAMEWORKS = ("torchvision",)


def load(name: str) -> ModuleType:
    """The module of workload ``name``."""
    if name not in WORKLOADS:
        raise ValueError(f"bench.workloads.load: unknown workload {name!r}; known: {', '.join(WORKLOADS)}")
    return importlib.import_module(f"{__name__}.{name}")


def resolve_params(name: str, overrides: dict[str, str]) -> dict[str, object]:
    """The workload's ``PARAMS`` with ``overrides`` (strings from the command line) cast to each default's type."""
    params = dict(load(name).PARAMS)
    for key, text in overrides.items():
        if key not in params:
            known = ", ".join(params) or "none"
            raise ValueError(f"bench: workload {name!r} has no parameter {key!r} (its parameters: {known})")
        params[key] = type(params[key])(text)
    return params


def setup(name: str, framework: str, params: dict[str, object]) -> Callable[[], object]:
    """Build workload ``name`` for ``framework`` and return its step."""
    known = FRAMEWORKS + OPTIONAL_FRAMEWORKS
    if framework not in known:
        raise ValueError(f"bench.workloads.setup: unknown framework {framework!r}; known: {', '.join(known)}")
    variant = getattr(load(name), f"setup_{framework}", None)
    if variant is None:
        raise ValueError(f"bench: workload {name!r} has no {framework} variant")
    return variant(**params)
