"""kusari.functions.noise: see the modules in this folder, one op each."""
from kusari.functions.noise.dropout import dropout  # NOQA
from kusari.functions.noise.gaussian import gaussian  # NOQA
from kusari.functions.noise.gumbel_softmax import gumbel_softmax  # NOQA
from kusari.functions.noise.simplified_dropconnect import simplified_dropconnect  # NOQA
from kusari.functions.noise.zoneout import zoneout  # NOQA
