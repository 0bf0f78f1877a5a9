"""Dataset splitters (Chainer Chemistry's chainer_chemistry.dataset.splitters)."""
from kusari.chem.dataset.splitters import base_splitter  # NOQA
from kusari.chem.dataset.splitters import deepchem_scaffold_splitter  # NOQA
from kusari.chem.dataset.splitters import random_splitter  # NOQA
from kusari.chem.dataset.splitters import scaffold_splitter  # NOQA
from kusari.chem.dataset.splitters import stratified_splitter  # NOQA
from kusari.chem.dataset.splitters import time_splitter  # NOQA
from kusari.chem.dataset.splitters.base_splitter import BaseSplitter
from kusari.chem.dataset.splitters.deepchem_scaffold_splitter import DeepChemScaffoldSplitter
from kusari.chem.dataset.splitters.random_splitter import RandomSplitter
from kusari.chem.dataset.splitters.scaffold_splitter import ScaffoldSplitter
from kusari.chem.dataset.splitters.stratified_splitter import StratifiedSplitter
from kusari.chem.dataset.splitters.time_splitter import TimeSplitter

split_method_dict = {
    "random": RandomSplitter,
    "stratified": StratifiedSplitter,
    "scaffold": ScaffoldSplitter,
    "dc_scaffold": DeepChemScaffoldSplitter,
    "time": TimeSplitter,
}

__all__ = ["BaseSplitter", "DeepChemScaffoldSplitter", "RandomSplitter", "ScaffoldSplitter",
           "StratifiedSplitter", "TimeSplitter", "split_method_dict"]
