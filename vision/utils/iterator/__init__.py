"""kusari.vision.utils.iterator: run a prediction over an iterator of batches, and its helpers."""
from kusari.vision.utils.iterator.apply_to_iterator import apply_to_iterator  # NOQA
from kusari.vision.utils.iterator.progress_hook import ProgressHook  # NOQA
from kusari.vision.utils.iterator.unzip import unzip  # NOQA
