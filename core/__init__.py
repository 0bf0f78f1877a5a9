"""kusari: define-by-run deep learning with Chainer v7's API on NumPy 2 and CuPy."""
__version__ = "0.1.0.dev0"

# Chainer's switch for kusari.utils.experimental's FutureWarning
disable_experimental_feature_warning = False

# engine
from kusari import configuration  # NOQA
from kusari.configuration import (config, force_backprop_mode, get_dtype, global_config,  # NOQA
                                  is_debug, mixed16, no_backprop_mode, set_debug, using_config)
from kusari import backend  # NOQA
from kusari.backend import get_array_types, get_device, using_device  # NOQA
from kusari import backends, memory_layouts  # NOQA
from kusari.backends import cuda  # NOQA
from kusari.variable import Parameter, Variable, VariableNode, as_array, as_variable  # NOQA
from kusari.function_node import FunctionNode  # NOQA
from kusari.function import Function, FunctionAdapter  # NOQA
from kusari._backprop import backward, grad  # NOQA
from kusari import utils  # NOQA
from kusari import onednn  # NOQA

# functions (and the Variable operators built on them)
from kusari import initializers  # NOQA
from kusari.initializer import Initializer  # NOQA
from kusari import functions  # NOQA
from kusari.functions.math import basic_math  # NOQA  (Chainer's kusari.basic_math)
from kusari.functions.math.basic_math import install_variable_arithmetics as _install

_install()
del _install

from kusari import gradient_check  # NOQA
from kusari import computational_graph  # NOQA
from kusari.static_graph import static_code, static_graph  # NOQA

# links, optimizers, serialization
from kusari.link import Chain, ChainList, Link  # NOQA
from kusari.sequential import Sequential  # NOQA
from kusari.link_hook import LinkHook  # NOQA
from kusari import links  # NOQA
from kusari import optimizer  # NOQA
from kusari.optimizer import GradientMethod, Hyperparameter, Optimizer, UpdateRule  # NOQA
from kusari import optimizers, optimizer_hooks  # NOQA
from kusari import serializer  # NOQA
from kusari.serializer import AbstractSerializer, Deserializer, Serializer  # NOQA
from kusari import serializers  # NOQA
from kusari import distribution, distributions  # NOQA
from kusari.distribution import Distribution, cross_entropy, kl_divergence, register_kl  # NOQA

# data and training
from kusari import reporter  # NOQA
from kusari.reporter import (DictSummary, Reporter, Summary, get_current_reporter,  # NOQA
                             report, report_scope)
from kusari import dataset, datasets, iterators  # NOQA
from kusari import training  # NOQA
