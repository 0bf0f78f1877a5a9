"""kusari.functions.connection: linear maps, convolutions, embeddings and RNNs (one op per module)."""
from kusari.functions.connection.bilinear import bilinear  # NOQA
from kusari.functions.connection.convolution import convolution_1d  # NOQA
from kusari.functions.connection.convolution import convolution_2d  # NOQA
from kusari.functions.connection.convolution import convolution_3d  # NOQA
from kusari.functions.connection.convolution import convolution_nd  # NOQA
from kusari.functions.connection.deconvolution import deconvolution_1d  # NOQA
from kusari.functions.connection.deconvolution import deconvolution_2d  # NOQA
from kusari.functions.connection.deconvolution import deconvolution_3d  # NOQA
from kusari.functions.connection.deconvolution import deconvolution_nd  # NOQA
from kusari.functions.connection.depthwise_convolution_2d import depthwise_convolution_2d  # NOQA
from kusari.functions.connection.dilated_convolution_2d import dilated_convolution_2d  # NOQA
from kusari.functions.connection.embed_id import embed_id  # NOQA
from kusari.functions.connection.im2col import im2col  # NOQA
from kusari.functions.connection.linear import linear  # NOQA
from kusari.functions.connection.local_convolution_2d import local_convolution_2d  # NOQA
from kusari.functions.connection.n_step_gru import n_step_bigru, n_step_gru  # NOQA
from kusari.functions.connection.n_step_lstm import n_step_bilstm, n_step_lstm  # NOQA
from kusari.functions.connection.n_step_rnn import n_step_birnn, n_step_rnn  # NOQA
from kusari.functions.connection.shift import shift  # NOQA
