"""Training loop: Trainer, updaters, triggers and extensions (Chainer's ``chainer.training``)."""
from kusari.training import extension  # NOQA
from kusari.training import trigger  # NOQA
from kusari.training import triggers  # NOQA
from kusari.training import updater  # NOQA
from kusari.training import updaters  # NOQA
from kusari.training.extension import (PRIORITY_EDITOR, PRIORITY_READER, PRIORITY_WRITER,  # NOQA
                                       Extension, make_extension)
from kusari.training.trainer import Trainer  # NOQA
from kusari.training.trigger import get_trigger  # NOQA
from kusari.training.updater import Updater  # NOQA
from kusari.training.updaters import StandardUpdater  # NOQA
from kusari.training import extensions  # NOQA
