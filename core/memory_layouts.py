"""Chainer's memory-layout names. kusari keeps every array in the standard (channel-first) layout.

Chainer 7.8's experimental channel-last layouts (``Variable(x, layout=CUDNN_CHANNEL_LAST_X)``) are
not supported; the names exist so that code importing them loads, and the channel-first names are
None, Chainer's value for the standard layout.
"""
CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = "CUDNN_CHANNEL_LAST_X"
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = "CUDNN_CHANNEL_LAST_W"
