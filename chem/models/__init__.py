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
from kusari.chem.models import cwle, gnn_film, gwle, gwm, relgat, weavenet  # NOQA
from kusari.chem.models.gnn_film import GNNFiLM  # NOQA
from kusari.chem.models.relgat import RelGAT  # NOQA
from kusari.chem.models.weavenet import WeaveNet  # NOQA
from kusari.chem.models.gwm.gwm_net import GGNN_GWM, GIN_GWM, NFP_GWM, RSGCN_GWM  # NOQA
from kusari.chem.models.cwle.cwle_net import (  # NOQA
    GGNN_CWLE, GIN_CWLE, NFP_CWLE, RSGCN_CWLE, RelGAT_CWLE, RelGCN_CWLE,
)
from kusari.chem.models.gwle.gwle_net import (  # NOQA
    GGNN_GWLE, GIN_GWLE, NFP_GWLE, RSGCN_GWLE, RelGAT_GWLE, RelGCN_GWLE,
)
from kusari.chem.models import megnet  # NOQA
from kusari.chem.models.megnet import MEGNet  # NOQA
from kusari.chem.models import cgcnn  # NOQA
from kusari.chem.models.cgcnn import CGCNN  # NOQA
from kusari.chem.models import dmpnn  # NOQA
from kusari.chem.models.dmpnn import DMPNN  # NOQA
from kusari.chem.models import attentive_fp  # NOQA
from kusari.chem.models.attentive_fp import AttentiveFP  # NOQA
from kusari.chem.models import prediction  # NOQA
from kusari.chem.models.prediction import (  # NOQA
    BaseForwardModel, Classifier, GraphConvPredictor, Regressor, set_up_predictor,
)
