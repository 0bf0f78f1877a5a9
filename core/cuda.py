"""``kusari.cuda`` is ``kusari.backends.cuda`` (Chainer kept ``chainer.cuda`` as the old name of that module)."""
import sys

from kusari.backends import cuda as _cuda

sys.modules[__name__] = _cuda
