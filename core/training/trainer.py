"""Trainer: runs an Updater until a stop trigger fires, calling extensions after each update."""
import collections
import os
import sys
import time
import traceback
import warnings

from kusari import reporter as reporter_module
from kusari.training import extension as extension_module
from kusari.training._global_rng import serialize_global_rng, serialize_python_rng
from kusari.training.trigger import get_trigger


class _ExtensionEntry:
    __slots__ = ("extension", "trigger", "priority", "call_before_training")

    def __init__(self, extension, trigger, priority, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


class Trainer:
    """The training loop.

    Each iteration: ``observation = {}``; inside ``reporter.scope(observation)`` the updater does one
    update, then every extension whose trigger fires is called, highest priority first (ties keep
    the order of ``extend``). The loop ends when ``stop_trigger(trainer)`` is True.

    Parameters
    ----------
    updater
        the Updater (e.g. :class:`~kusari.training.updaters.StandardUpdater`).
    stop_trigger
        when to stop: ``(length, unit)`` or a callable; None runs until interrupted.
    out : str
        output directory for logs and snapshots (created on ``run``).
    extensions : list
        extensions to add with their defaults.

    Attributes
    ----------
        updater, stop_trigger, out, observation (dict of the current iteration),
        reporter (a Reporter on which each optimizer's target link is registered under the
        optimizer's name, e.g. ``'main'``, and its sublinks as ``'main/l1'``).
    """

    def __init__(self, updater, stop_trigger=None, out="result", extensions=None):
        self.updater = updater
        self.stop_trigger = get_trigger(stop_trigger)
        self.out = out
        self.observation = {}
        self.reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            self.reporter.add_observer(name, optimizer.target)
            self.reporter.add_observers(name, optimizer.target.namedlinks(skipself=True))
        self._extensions = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._done = False
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def elapsed_time(self) -> float:
        """Seconds spent in ``run`` so far, including the time before a resumed snapshot."""
        if self._start_at is None:
            return self._snapshot_elapsed_time
        return time.perf_counter() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None, *, call_before_training=False):
        """Register an extension (a callable ``ext(trainer)``, usually an :class:`Extension`).

        ``name``, ``trigger`` and ``priority`` default to the extension's ``name`` or
        ``default_name``, ``trigger`` and ``priority``. A repeated name gets a suffix ``_1``, ``_2``...
        With ``call_before_training`` the extension is also called once before the first update.
        """
        if self._done:
            raise RuntimeError("Trainer.extend: this trainer has already run")
        if not callable(extension):
            raise TypeError(f"Trainer.extend: extension must be callable, got {type(extension).__name__}")
        if name is None:
            name = getattr(extension, "name", None) or getattr(extension, "default_name", None)
            if name is None:
                name = getattr(extension, "__name__", None)
            if name is None:
                raise TypeError("Trainer.extend: name is not given and the extension has no default_name")
        if trigger is None:
            trigger = getattr(extension, "trigger", extension_module.Extension.trigger)
        if priority is None:
            priority = getattr(extension, "priority", extension_module.PRIORITY_READER)
        modified = name
        suffix = 1
        while modified in self._extensions:
            modified = f"{name}_{suffix}"
            suffix += 1
        extension.name = modified
        self._extensions[modified] = _ExtensionEntry(extension, get_trigger(trigger), priority,
                                                     call_before_training)

    def get_extension(self, name):
        """The extension registered as ``name``; ValueError if there is none."""
        if name not in self._extensions:
            raise ValueError(f"Trainer.get_extension: no extension named {name!r} "
                             f"(registered: {list(self._extensions)})")
        return self._extensions[name].extension

    def _sorted_entries(self):
        return sorted(self._extensions.items(), key=lambda item: -item[1].priority)

    def run(self, show_loop_exception_msg=True):
        """Run the training loop until the stop trigger fires.

        Extensions' ``initialize`` run first (those with ``autoload`` set before the others, so that a
        resumed state is in place), then the loop. On an exception, prints its traceback (when
        ``show_loop_exception_msg``), calls each extension's ``on_error(trainer, exc, tb)``
        and re-raises. Extensions' ``finalize`` and the
        updater's ``finalize`` run in every case. A trainer runs only once.
        """
        if self._done:
            raise RuntimeError("Trainer.run: the training loop cannot run twice")
        os.makedirs(self.out, exist_ok=True)
        entries = self._sorted_entries()
        self._start_at = time.perf_counter()
        try:
            with self.reporter.scope(self.observation):
                # extensions that load saved state (snapshot(autoload=True)) initialize first, so the
                # others initialize from the resumed state
                loaders_first = sorted(entries, key=lambda item: not getattr(item[1].extension, "autoload", False))
                for _, entry in loaders_first:
                    initializer = getattr(entry.extension, "initialize", None)
                    if initializer is not None and not getattr(entry.trigger, "finished", False):
                        initializer(self)
                for _, entry in entries:
                    if entry.call_before_training:
                        entry.extension(self)
            updated = False
            while not self.stop_trigger(self):
                updated = True
                self.observation = {}
                with self.reporter.scope(self.observation):
                    self.updater.update()
                    for _, entry in entries:
                        if entry.trigger(self):
                            entry.extension(self)
            if not updated:
                warnings.warn(
                    f"Trainer.run: the stop trigger fired before the first update (at iteration "
                    f"{self.updater.iteration}, epoch {self.updater.epoch}): nothing to train. A run resumed "
                    f"from the snapshot of a finished run ends here; give a later stop trigger to train "
                    f"further.", stacklevel=2)
        except Exception as e:
            if show_loop_exception_msg:
                print("Exception in the training loop:", file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
                print("Will finalize the trainer extensions and the updater before re-raising it.",
                      file=sys.stderr)
            tb = sys.exc_info()[2]
            for _, entry in entries:
                handler = getattr(entry.extension, "on_error", None)
                if handler is not None:
                    try:
                        handler(self, e, tb)
                    except Exception as handler_error:
                        print(f"Trainer: on_error of {entry.extension.name!r} raised {handler_error!r}",
                              file=sys.stderr)
            raise
        finally:
            for _, entry in entries:
                finalize = getattr(entry.extension, "finalize", None)
                if finalize is not None:
                    finalize()
            self.updater.finalize()
            self._snapshot_elapsed_time = self.elapsed_time
            self._start_at = None
            self._done = True

    def serialize(self, serializer):
        """Save or load the updater, the stop trigger, the extensions and their triggers, NumPy's and
        Python's global random states and the elapsed time."""
        self.updater.serialize(serializer["updater"])
        if hasattr(self.stop_trigger, "serialize"):
            self.stop_trigger.serialize(serializer["stop_trigger"])
        ext_ser = serializer["extensions"]
        trig_ser = serializer["extension_triggers"]
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, "serialize"):
                entry.extension.serialize(ext_ser[name])
            if hasattr(entry.trigger, "serialize"):
                entry.trigger.serialize(trig_ser[name])
        serialize_global_rng(serializer["numpy_random_state"])
        serialize_python_rng(serializer["python_random_state"])
        elapsed = float(serializer("_snapshot_elapsed_time", self.elapsed_time))
        if serializer.is_loading:
            self._snapshot_elapsed_time = elapsed
            if self._start_at is not None:
                self._start_at = time.perf_counter()
