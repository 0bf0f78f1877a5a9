"""VariableMonitorLinkHook: capture (and optionally rewrite) the input or output Variable of one link.

Chainer Chemistry keeps it in ``chainer_chemistry.link_hooks``; the saliency calculators use it to pick
the variable to explain (e.g. the atom embedding) and the score to explain.
"""
from collections import OrderedDict
from logging import getLogger

import kusari

_TIMINGS = ("pre", "post")


def _first_input(hook, args):
    return args.args[0]


def _output(hook, args):
    return args.out


class VariableMonitorLinkHook(kusari.LinkHook):
    """Record the first input (``timing='pre'``) or the output (``'post'``) of ``target_link``.

    Attach it to the target link (``target_link.add_hook(hook)``) or enter it as a context
    (``with hook:``); after a forward, :meth:`get_variable` returns the recorded variable. Functions
    registered with :meth:`add_process` run on that variable right after it is recorded, before the
    rest of the forward sees it, so they can rewrite its ``array`` (add noise, mask, interpolate).

    Parameters
    ----------
    target_link : kusari.Link
        The link to watch.
    name : str
        The hook's name (several monitors need distinct names to be active together).
    timing : {'pre', 'post'}
        Watch the link's input before its forward, or its output after.
    extract_fn : callable or None
        ``extract_fn(hook, args) -> Variable`` picks the variable; None takes ``args.args[0]``
        (``'pre'``) or ``args.out`` (``'post'``).
    logger : logging.Logger or None
    """

    def __init__(self, target_link: kusari.Link, name: str = "VariableMonitorLinkHook",
                 timing: str = "post", extract_fn=None, logger=None):
        if not isinstance(target_link, kusari.Link):
            raise TypeError("VariableMonitorLinkHook: target_link must be a kusari.Link, got "
                            f"{type(target_link).__name__}")
        if timing not in _TIMINGS:
            raise ValueError(f"VariableMonitorLinkHook: timing must be 'pre' or 'post', got {timing!r}")
        self.target_link = target_link
        self.name = name
        self.timing = timing
        self.extract_fn = extract_fn or (_first_input if timing == "pre" else _output)
        self.logger = logger or getLogger(__name__)
        self.process_fns = OrderedDict()
        self.result = None

    def add_process(self, key: str, fn) -> None:
        """Run ``fn(hook, args, target_var)`` on every recorded variable, until :meth:`delete_process`.

        Parameters
        ----------
        key : str
            The process's name.
        fn : callable
            ``fn(hook, args, target_var)``; it may rewrite ``target_var.array``.
        """
        if not isinstance(key, str):
            raise TypeError(f"VariableMonitorLinkHook.add_process: key must be a str, got {type(key).__name__}")
        if not callable(fn):
            raise TypeError(f"VariableMonitorLinkHook.add_process: fn for {key!r} is not callable")
        self.process_fns[key] = fn

    def delete_process(self, key: str) -> None:
        """Remove the process added as ``key`` (a warning, not an error, when there is none)."""
        if not isinstance(key, str):
            raise TypeError(
                f"VariableMonitorLinkHook.delete_process: key must be a str, got {type(key).__name__}")
        if self.process_fns.pop(key, None) is None:
            self.logger.warning("VariableMonitorLinkHook.delete_process: no process %r", key)

    def get_variable(self):
        """The variable recorded by the last forward of ``target_link`` (None before any)."""
        return self.result

    def _record(self, args) -> None:
        self.result = self.extract_fn(self, args)
        for fn in self.process_fns.values():
            fn(self, args, self.result)

    def forward_preprocess(self, args) -> None:
        if self.timing == "pre" and args.link is self.target_link:
            self._record(args)

    def forward_postprocess(self, args) -> None:
        if self.timing == "post" and args.link is self.target_link:
            self._record(args)
