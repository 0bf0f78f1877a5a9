"""Datasets: general-purpose wrappers (tuple, dict, sub, transform, image, text, pickle) and real-data loaders."""
from kusari.datasets.cifar import get_cifar10, get_cifar100  # NOQA
from kusari.datasets.concatenated_dataset import ConcatenatedDataset  # NOQA
from kusari.datasets.dict_dataset import DictDataset  # NOQA
from kusari.datasets.fashion_mnist import get_fashion_mnist, get_fashion_mnist_labels  # NOQA
from kusari.datasets.image_dataset import (ImageDataset, LabeledImageDataset,  # NOQA
                                           LabeledZippedImageDataset, MultiZippedImageDataset,
                                           ZippedImageDataset)
from kusari.datasets.kuzushiji_mnist import get_kuzushiji_mnist, get_kuzushiji_mnist_labels  # NOQA
from kusari.datasets.mnist import get_mnist  # NOQA
from kusari.datasets.pickle_dataset import (PickleDataset, PickleDatasetWriter,  # NOQA
                                            open_pickle_dataset, open_pickle_dataset_writer)
from kusari.datasets.ptb import get_ptb_words, get_ptb_words_vocabulary  # NOQA
from kusari.datasets.sub_dataset import (SubDataset, get_cross_validation_datasets,  # NOQA
                                         get_cross_validation_datasets_random, split_dataset,
                                         split_dataset_n, split_dataset_n_random, split_dataset_random)
from kusari.datasets.svhn import get_svhn  # NOQA
from kusari.datasets.text_dataset import TextDataset  # NOQA
from kusari.datasets.transform_dataset import TransformDataset  # NOQA
from kusari.datasets.tuple_dataset import TupleDataset  # NOQA
