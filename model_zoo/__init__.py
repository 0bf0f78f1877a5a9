"""kusari.model_zoo: the registry of pretrained weights, loaded by name and verified by checksum.

``load(name)`` builds the entry's architecture with its weights; ``list()`` names the entries;
``info(name)`` describes one. Model constructors take ``pretrained_model=`` (a key or an NPZ path),
resolved by :func:`kusari.model_zoo.pretrained.resolve`.
"""
from kusari.model_zoo import entries  # NOQA  (registers the shipped entries)
from kusari.model_zoo.registry import Entry, info, load, register, unregister, weights_path  # NOQA
from kusari.model_zoo.registry import names as list  # NOQA
