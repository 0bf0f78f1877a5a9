"""kusari.chem: molecular graph networks on RDKit (Chainer Chemistry's successor)."""
from kusari.utils.extras import require_extra

require_extra("chem", ["rdkit", "pandas", "sklearn"])

from kusari.chem import (config, dataset, datasets, functions, link_hooks, links, models,  # noqa: E402,F401
                         saliency, training, utils)  # (after the extra check)
from kusari.chem.config import MAX_ATOMIC_NUM, WEAVE_DEFAULT_NUM_MAX_ATOMS  # noqa: E402,F401
