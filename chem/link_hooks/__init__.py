"""kusari.chem.link_hooks (Chainer Chemistry's chainer_chemistry.link_hooks)."""
from kusari.chem.link_hooks import variable_monitor_link_hook  # NOQA
from kusari.chem.link_hooks.variable_monitor_link_hook import VariableMonitorLinkHook  # NOQA

is_link_hooks_available = True   # always: kusari has link hooks (Chainer Chemistry checked Chainer's version)
