"""set_up_predictor: a GraphConvPredictor (graph convolution + MLP head) built from a method name."""
import importlib
import logging
from collections.abc import Callable

from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.models.cwle.cwle_graph_conv_model import MAX_WLE_NUM
from kusari.chem.models.mlp import MLP
from kusari.chem.models.prediction.graph_conv_predictor import GraphConvPredictor
from kusari.link import Link

logger = logging.getLogger(__name__)


# How each method's graph convolution is built from (n_unit, conv_layers, class_num): its
# kusari.chem.models module and class, and the constructor arguments the method fixes. "standard"
# is (out_dim=n_unit, hidden_channels=n_unit, n_update_layers=conv_layers, n_atom_types), "wle"
# adds n_wle_types; the other kinds are the families whose constructors upstream calls differently.
_STANDARD = "standard"
_WLE = "wle"
_METHODS = {
    "nfp": ("nfp", "NFP", _STANDARD),
    "ggnn": ("ggnn", "GGNN", _STANDARD),
    "schnet": ("schnet", "SchNet", "schnet"),
    "weavenet": ("weavenet", "WeaveNet", "weavenet"),
    "rsgcn": ("rsgcn", "RSGCN", _STANDARD),
    "relgcn": ("relgcn", "RelGCN", "relgcn"),
    "relgat": ("relgat", "RelGAT", _STANDARD),
    "gin": ("gin", "GIN", _STANDARD),
    "nfp_gwm": ("gwm.gwm_net", "NFP_GWM", _STANDARD),
    "ggnn_gwm": ("gwm.gwm_net", "GGNN_GWM", _STANDARD),
    "rsgcn_gwm": ("gwm.gwm_net", "RSGCN_GWM", _STANDARD),
    "gin_gwm": ("gwm.gwm_net", "GIN_GWM", _STANDARD),
    "relgcn_sparse": ("relgcn", "RelGCNSparse", _STANDARD),
    "gin_sparse": ("gin", "GINSparse", _STANDARD),
    "gnnfilm": ("gnn_film", "GNNFiLM", "gnnfilm"),
    "megnet": ("megnet", "MEGNet", "fixed_widths"),
    "cgcnn": ("cgcnn", "CGCNN", "fixed_widths"),
    # kusari's: chemprop's D-MPNN on ChempropPreprocessor's features
    "dmpnn": ("dmpnn", "DMPNN", "dmpnn"),
    "attentivefp": ("attentive_fp", "AttentiveFP", "attentivefp"),
}
# the plain WLE methods run the base model on relabelled atoms
_METHODS.update({f"{base}_wle": _METHODS[base] for base in ("nfp", "ggnn", "rsgcn", "relgcn",
                                                           "relgat", "gin")})
_METHODS.update({f"{base}_{kind}": (f"{kind}.{kind}_net", f"{cls}_{kind.upper()}", _WLE)
                 for kind in ("cwle", "gwle")
                 for base, cls in (("nfp", "NFP"), ("ggnn", "GGNN"), ("relgat", "RelGAT"),
                                   ("relgcn", "RelGCN"), ("rsgcn", "RSGCN"), ("gin", "GIN"))})


def _conv_arguments(kind: str, n_unit: int, conv_layers: int, class_num: int, n_atom_types: int,
                    n_wle_types: int) -> dict:
    if kind in (_STANDARD, _WLE, "gnnfilm"):
        arguments = dict(out_dim=n_unit, hidden_channels=n_unit, n_update_layers=conv_layers,
                         n_atom_types=n_atom_types)
        if kind == _WLE:
            arguments["n_wle_types"] = n_wle_types
        if kind == "gnnfilm":
            arguments["n_edge_types"] = 5
        return arguments
    if kind == "schnet":  # SchNet predicts the classes itself: no MLP head
        return dict(out_dim=class_num, hidden_channels=n_unit, n_update_layers=conv_layers,
                    n_atom_types=n_atom_types)
    if kind == "weavenet":
        return dict(hidden_dim=n_unit, n_atom_types=n_atom_types)
    if kind == "dmpnn":   # chemprop's width and depth names
        return dict(hidden_channels=n_unit, n_update_layers=conv_layers)
    if kind == "attentivefp":
        return dict(out_dim=n_unit, hidden_channels=n_unit, n_update_layers=conv_layers)
    if kind == "relgcn":  # upstream leaves conv_layers and the channel widths to RelGCN's defaults
        return dict(out_dim=n_unit, n_edge_types=4, scale_adj=True, n_atom_types=n_atom_types)
    return dict(out_dim=n_unit, n_update_layers=conv_layers)  # fixed_widths: megnet, cgcnn


def _find_class(method: str):
    """The model class of ``method``, or None when kusari.chem.models does not have it yet."""
    module_name, class_name, _ = _METHODS[method]
    full_name = f"kusari.chem.models.{module_name}"
    try:
        module = importlib.import_module(full_name)
    except ModuleNotFoundError as e:
        # only the family's own module may be missing; a broken import inside it is a real error
        if e.name is None or not (full_name == e.name or full_name.startswith(e.name + ".")):
            raise
        return None
    return getattr(module, class_name, None)


def available_methods() -> list:
    """The ``set_up_predictor`` methods whose graph convolution kusari.chem.models provides."""
    return [method for method in _METHODS if _find_class(method) is not None]


def set_up_predictor(method: str, n_unit: int, conv_layers: int, class_num: int,
                     label_scaler: Link | None = None, postprocess_fn: Callable | None = None,
                     n_atom_types: int = MAX_ATOMIC_NUM, conv_kwargs: dict | None = None,
                     n_wle_types: int = MAX_WLE_NUM) -> GraphConvPredictor:
    """A GraphConvPredictor of the ``method`` graph convolution and an MLP head, as upstream builds it.

    Parameters
    ----------
    method : str
        ``'nfp'``, ``'ggnn'``, ``'schnet'``, ``'weavenet'``, ``'rsgcn'``, ``'relgcn'``,
        ``'relgat'``, ``'gin'``, ``'gnnfilm'``, ``'megnet'``, ``'cgcnn'``, ``'dmpnn'``, ``'attentivefp'``
        (kusari's, on ChempropPreprocessor's features), ``'<base>_gwm'``,
        ``'<base>_wle'``, ``'<base>_cwle'``, ``'<base>_gwle'``, ``'relgcn_sparse'``,
        ``'gin_sparse'`` (see ``available_methods()`` for those this kusari provides).
    n_unit : int
        Hidden width of the convolution, its output size and the MLP's hidden width.
    conv_layers : int
        Update layers of the convolution.
    class_num : int
        Output size of the predictor (of the MLP head; of SchNet itself for ``'schnet'``).
    label_scaler : kusari.Link or None
        Passed to GraphConvPredictor.
    postprocess_fn : callable or None
        Passed to GraphConvPredictor.
    n_atom_types : int
    conv_kwargs : dict or None
        More keyword arguments of the convolution's constructor.
    n_wle_types : int
        WLE vocabulary size of the ``_cwle`` / ``_gwle`` methods.

    Returns
    -------
    GraphConvPredictor
        ``graph_conv`` and ``mlp`` (an MLP with ``out_dim=class_num, hidden_dim=n_unit``; None for
        ``'schnet'``).
    """
    if method not in _METHODS:
        raise ValueError(f"set_up_predictor: unknown method {method!r}; the methods are "
                         f"{sorted(_METHODS)}, and kusari provides {available_methods()}")
    conv_class = _find_class(method)
    if conv_class is None:
        module_name, class_name, _ = _METHODS[method]
        raise ValueError(f"set_up_predictor: method {method!r} needs kusari.chem.models."
                         f"{module_name}.{class_name}, which this kusari does not provide yet; "
                         f"available methods: {available_methods()}")
    kind = _METHODS[method][2]
    logger.info("set_up_predictor: setting up a %s predictor", conv_class.__name__)
    arguments = _conv_arguments(kind, n_unit, conv_layers, class_num, n_atom_types, n_wle_types)
    conv = conv_class(**arguments, **(conv_kwargs or {}))
    mlp = None if kind == "schnet" else MLP(out_dim=class_num, hidden_dim=n_unit)
    return GraphConvPredictor(conv, mlp, label_scaler, postprocess_fn)
