"""kusari.functions.activation: see the modules in this folder, one op each."""
from kusari.functions.activation.clipped_relu import clipped_relu, relu6  # NOQA
from kusari.functions.activation.crelu import crelu  # NOQA
from kusari.functions.activation.elu import elu  # NOQA
from kusari.functions.activation.gelu import gelu  # NOQA
from kusari.functions.activation.hard_sigmoid import hard_sigmoid  # NOQA
from kusari.functions.activation.hard_swish import hard_swish  # NOQA
from kusari.functions.activation.leaky_relu import leaky_relu  # NOQA
from kusari.functions.activation.log_softmax import log_softmax  # NOQA
from kusari.functions.activation.lstm import lstm  # NOQA
from kusari.functions.activation.maxout import maxout  # NOQA
from kusari.functions.activation.mish import mish  # NOQA
from kusari.functions.activation.prelu import prelu  # NOQA
from kusari.functions.activation.relu import relu  # NOQA
from kusari.functions.activation.rrelu import rrelu  # NOQA
from kusari.functions.activation.selu import selu  # NOQA
from kusari.functions.activation.sigmoid import sigmoid  # NOQA
from kusari.functions.activation.silu import silu  # NOQA
from kusari.functions.activation.slstm import slstm  # NOQA
from kusari.functions.activation.softmax import softmax  # NOQA
from kusari.functions.activation.softplus import softplus  # NOQA
from kusari.functions.activation.swish import swish  # NOQA
from kusari.functions.activation.tanh import tanh  # NOQA
from kusari.functions.activation.tree_lstm import tree_lstm  # NOQA
