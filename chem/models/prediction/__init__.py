"""kusari.chem.models.prediction (Chainer Chemistry's chainer_chemistry.models.prediction)."""
from kusari.chem.models.prediction import base, classifier, graph_conv_predictor, node_classifier, regressor  # NOQA
from kusari.chem.models.prediction.base import BaseForwardModel  # NOQA
from kusari.chem.models.prediction.classifier import Classifier  # NOQA
from kusari.chem.models.prediction.graph_conv_predictor import GraphConvPredictor  # NOQA
from kusari.chem.models.prediction.node_classifier import NodeClassifier  # NOQA
from kusari.chem.models.prediction.regressor import Regressor  # NOQA
from kusari.chem.models.prediction.set_up_predictor import set_up_predictor  # NOQA
