"""Dataset plumbing: dataset and iterator bases, batch converters, and verified cached downloads."""
from kusari.dataset.convert import Converter, concat_examples, converter, to_device  # NOQA
from kusari.dataset._file_lock import file_lock  # NOQA
from kusari.dataset.dataset_mixin import DatasetMixin  # NOQA
from kusari.dataset.download import (CacheError, Checksum, DownloadError, cache_or_load_file,  # NOQA
                                     cached_download, get_dataset_directory, get_dataset_root,
                                     set_dataset_root)
from kusari.dataset.iterator import Iterator  # NOQA
