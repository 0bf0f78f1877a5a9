"""Constants shared across kusari.chem (Chainer Chemistry's ``chainer_chemistry.config``)."""

MAX_ATOMIC_NUM = 117   # the largest atomic number RDKit knows
WEAVE_DEFAULT_NUM_MAX_ATOMS = 20   # WeaveNet's default max_atoms (its paper used 60)
