"""kusari.chem.dataset (Chainer Chemistry's chainer_chemistry.dataset): parsers, preprocessors,
splitters and converters of molecule datasets."""
from kusari.chem.dataset import converters  # NOQA
from kusari.chem.dataset import parsers  # NOQA
from kusari.chem.dataset import preprocessors  # NOQA
from kusari.chem.dataset import splitters  # NOQA
from kusari.chem.dataset.indexer import BaseFeatureIndexer, BaseIndexer  # NOQA
