"""kusari.chem.training (Chainer Chemistry's chainer_chemistry.training)."""
from kusari.chem.training import extensions  # NOQA
