"""Extension: a callable run by the Trainer after updates, with a trigger, a priority and a name."""

PRIORITY_WRITER = 300
"""Extensions that write observations (e.g. Evaluator, observe_lr): run first."""
PRIORITY_EDITOR = 200
"""Extensions that edit observations (e.g. MicroAverage): run after writers."""
PRIORITY_READER = 100
"""Extensions that read observations (e.g. LogReport, PrintReport): run after editors."""


class Extension:
    """Base of trainer extensions.

    A subclass implements ``__call__(trainer)``; the Trainer calls it whenever ``trigger`` fires.
    Class attributes give the defaults that ``Trainer.extend`` uses when it is given none:
    ``trigger`` ((period, unit) or a callable), ``priority`` (higher runs first), ``default_name``.
    Optional hooks: ``initialize(trainer)`` before the loop (also on resume), ``finalize()`` after it,
    ``on_error(trainer, exc, tb)`` when the loop raises, ``serialize(serializer)`` for snapshots.
    """

    trigger = 1, "iteration"
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self) -> str:
        """The name used when ``Trainer.extend`` gets none: the class name."""
        return type(self).__name__

    def __call__(self, trainer):
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__(trainer)")

    def initialize(self, trainer):
        """Called once before the training loop starts (including a resumed one)."""

    def finalize(self):
        """Called once after the training loop ends, normally or by an exception."""

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raises ``exc`` (with traceback ``tb``), before it propagates."""

    def serialize(self, serializer):
        """Save or load this extension's state (stateless by default)."""


def make_extension(trigger=None, default_name=None, priority=None, finalizer=None, initializer=None,
                   on_error=None, **kwargs):
    """Decorator that turns a function ``f(trainer)`` into an extension by setting its attributes.

    Parameters
    ----------
    trigger
        default trigger ((period, unit) or callable); ``(1, 'iteration')`` when None.
    default_name
        default name; the function's ``__name__`` when None.
    priority
        default priority; ``PRIORITY_READER`` when None.
    finalizer, initializer, on_error
        optional callables installed as ``finalize``,
        ``initialize`` and ``on_error``.
    """
    if kwargs:
        raise TypeError(f"make_extension: unexpected keyword arguments {sorted(kwargs)}")
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.initialize = initializer
        ext.on_error = on_error
        return ext

    return decorator
