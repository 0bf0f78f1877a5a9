"""kusari.chem.models (Chainer Chemistry's chainer_chemistry.models)."""
from kusari.chem.models import ggnn, gin, mlp, mpnn, nfp, relgcn, rsgcn, schnet  # NOQA
from kusari.chem.models.ggnn import GGNN  # NOQA
from kusari.chem.models.gin import GIN  # NOQA
from kusari.chem.models.mlp import MLP  # NOQA
from kusari.chem.models.mpnn import MPNN  # NOQA
from kusari.chem.models.nfp import NFP  # NOQA
from kusari.chem.models.relgcn import RelGCN  # NOQA
from kusari.chem.models.rsgcn import RSGCN  # NOQA
from kusari.chem.models.schnet import SchNet  # NOQA
