"""Chainer's ``chainer.functions.rnn`` paths; kusari keeps these ops in ``activation`` and ``connection``.

``kusari.functions.rnn.n_step_lstm`` (and ``lstm``, ``slstm``, ``tree_lstm``, ``n_step_gru``,
``n_step_rnn``) is the very module of ``kusari.functions.activation`` or ``.connection``.
"""
import importlib
import sys

_HOMES = {"lstm": "activation", "slstm": "activation", "tree_lstm": "activation",
          "n_step_gru": "connection", "n_step_lstm": "connection", "n_step_rnn": "connection"}

for _name, _category in _HOMES.items():
    _module = importlib.import_module(f"kusari.functions.{_category}.{_name}")
    sys.modules[f"{__name__}.{_name}"] = _module
    globals()[_name] = _module
del _name, _category, _module
