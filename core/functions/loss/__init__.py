"""kusari.functions.loss: see the modules in this folder, one op each."""
from kusari.functions.loss.absolute_error import absolute_error, mean_absolute_error  # NOQA
from kusari.functions.loss.bernoulli_nll import bernoulli_nll  # NOQA
from kusari.functions.loss.black_out import black_out  # NOQA
from kusari.functions.loss.connectionist_temporal_classification import connectionist_temporal_classification  # NOQA
from kusari.functions.loss.contrastive import contrastive  # NOQA
from kusari.functions.loss.crf1d import argmax_crf1d, crf1d  # NOQA
from kusari.functions.loss.cross_covariance import cross_covariance  # NOQA
from kusari.functions.loss.decov import decov  # NOQA
from kusari.functions.loss.discriminative_margin_based_clustering_loss import discriminative_margin_based_clustering_loss  # NOQA
from kusari.functions.loss.gaussian_kl_divergence import gaussian_kl_divergence  # NOQA
from kusari.functions.loss.gaussian_nll import gaussian_nll  # NOQA
from kusari.functions.loss.hinge import hinge  # NOQA
from kusari.functions.loss.huber_loss import huber_loss  # NOQA
from kusari.functions.loss.negative_sampling import negative_sampling  # NOQA
from kusari.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy  # NOQA
from kusari.functions.loss.softmax_cross_entropy import softmax_cross_entropy  # NOQA
from kusari.functions.loss.squared_error import mean_squared_error, squared_error  # NOQA
from kusari.functions.loss.triplet import triplet  # NOQA
