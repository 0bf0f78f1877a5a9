"""kusari.functions.normalization: see the modules in this folder, one op each."""
from kusari.functions.normalization.batch_normalization import batch_normalization  # NOQA
from kusari.functions.normalization.batch_normalization import fixed_batch_normalization  # NOQA
from kusari.functions.normalization.batch_renormalization import batch_renormalization  # NOQA
from kusari.functions.normalization.batch_renormalization import fixed_batch_renormalization  # NOQA
from kusari.functions.normalization.decorrelated_batch_normalization import (  # NOQA
    decorrelated_batch_normalization, fixed_decorrelated_batch_normalization)
from kusari.functions.normalization.group_normalization import group_normalization  # NOQA
from kusari.functions.normalization.l2_normalization import normalize  # NOQA
from kusari.functions.normalization.layer_normalization import layer_normalization  # NOQA
from kusari.functions.normalization.local_response_normalization import local_response_normalization  # NOQA
