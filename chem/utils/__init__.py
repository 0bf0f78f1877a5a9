"""kusari.chem.utils: padding and permuting graph arrays, JSON with NumPy values, sparse helpers, run_train."""
from kusari.chem.utils.json_utils import load_json, save_json  # NOQA
from kusari.chem.utils.sparse_utils import convert_sparse_with_edge_type, is_sparse  # NOQA
from kusari.chem.utils.train_utils import run_train  # NOQA
