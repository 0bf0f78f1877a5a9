"""kusari.chem.links (Chainer Chemistry's chainer_chemistry.links)."""
from kusari.chem.links.scaler.max_abs_scaler import MaxAbsScaler  # NOQA
from kusari.chem.links.scaler.min_max_scaler import MinMaxScaler  # NOQA
from kusari.chem.links.scaler.standard_scaler import StandardScaler  # NOQA
