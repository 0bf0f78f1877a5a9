"""kusari.chem: molecular graph networks on RDKit (Chainer Chemistry's successor)."""
from kusari.utils.extras import require_extra

require_extra("chem", ["rdkit"])
