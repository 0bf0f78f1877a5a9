"""kusari.links (``L``): Links, the parameterized building blocks, with Chainer v7's names."""
from kusari.links.activation.maxout import Maxout  # NOQA
from kusari.links.activation.prelu import PReLU  # NOQA
from kusari.links.activation.simplified_dropconnect import SimplifiedDropconnect  # NOQA
from kusari.links.activation.swish import Swish  # NOQA
from kusari.links.connection.bias import Bias  # NOQA
from kusari.links.connection.bilinear import Bilinear  # NOQA
from kusari.links.connection.convolution_2d import Convolution2D  # NOQA
from kusari.links.connection.convolution_nd import Convolution1D, Convolution3D, ConvolutionND  # NOQA
from kusari.links.connection.deconvolution_2d import Deconvolution2D  # NOQA
from kusari.links.connection.deconvolution_nd import (Deconvolution1D, Deconvolution3D,  # NOQA
                                                      DeconvolutionND)
from kusari.links.connection.deformable_convolution_2d import DeformableConvolution2D  # NOQA
from kusari.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D  # NOQA
from kusari.links.connection.dilated_convolution_2d import DilatedConvolution2D  # NOQA
from kusari.links.connection.embed_id import EmbedID  # NOQA
from kusari.links.connection.highway import Highway  # NOQA
from kusari.links.connection.inception import Inception  # NOQA
from kusari.links.connection.inception_bn import InceptionBN  # NOQA
from kusari.links.connection.linear import Linear  # NOQA
from kusari.links.connection.local_convolution_2d import LocalConvolution2D  # NOQA
from kusari.links.connection.mlp_convolution_2d import MLPConvolution2D  # NOQA
from kusari.links.connection.parameter import Parameter  # NOQA
from kusari.links.connection.scale import Scale  # NOQA
from kusari.links.loss.black_out import BlackOut  # NOQA
from kusari.links.loss.crf1d import CRF1d  # NOQA
from kusari.links.loss.hierarchical_softmax import BinaryHierarchicalSoftmax  # NOQA
from kusari.links.loss.negative_sampling import NegativeSampling  # NOQA
from kusari.links.model.classifier import Classifier  # NOQA
from kusari.links.normalization.batch_normalization import BatchNormalization  # NOQA
from kusari.links.normalization.batch_renormalization import BatchRenormalization  # NOQA
from kusari.links.normalization.decorrelated_batch_normalization import (  # NOQA
    DecorrelatedBatchNormalization)
from kusari.links.normalization.group_normalization import GroupNormalization  # NOQA
from kusari.links.normalization.layer_normalization import LayerNormalization  # NOQA
from kusari.links.rnn.gru import GRU, StatefulGRU, StatelessGRU  # NOQA
from kusari.links.rnn.lstm import LSTM, StatelessLSTM  # NOQA
from kusari.links.rnn.mgu import StatefulMGU, StatelessMGU  # NOQA
from kusari.links.rnn.n_step_rnn import (NStepBiGRU, NStepBiLSTM, NStepBiRNNReLU,  # NOQA
                                         NStepBiRNNTanh, NStepGRU, NStepLSTM, NStepRNNReLU,
                                         NStepRNNTanh)
from kusari.links.rnn.peephole import StatefulPeepholeLSTM  # NOQA
from kusari.links.rnn.tree_lstm import ChildSumTreeLSTM, NaryTreeLSTM  # NOQA
from kusari.links.rnn.zoneout_lstm import StatefulZoneoutLSTM  # NOQA
