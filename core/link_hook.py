"""LinkHook: callbacks around every Link call, attached to one link or, as a context, globally."""
from kusari import link as link_module


class _ForwardPreprocessCallbackArgs:
    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs


class _ForwardPostprocessCallbackArgs(_ForwardPreprocessCallbackArgs):
    def __init__(self, link, forward_name, args, kwargs, out):
        super().__init__(link, forward_name, args, kwargs)
        self.out = out


class LinkHook:
    """Override ``forward_preprocess(args)`` / ``forward_postprocess(args)``; ``with hook:`` applies it to all links."""

    name = "LinkHook"

    def __enter__(self):
        hooks = link_module._global_link_hooks()
        if self.name in hooks:
            raise KeyError(f"LinkHook {self.name!r} is already registered")
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *exc):
        link_module._global_link_hooks().pop(self.name, None)
        self.deleted(None)

    def added(self, link):
        """Called when the hook is attached (``link`` is None for a global hook)."""

    def deleted(self, link):
        """Called when the hook is removed."""

    def forward_preprocess(self, args):
        """Called before ``link.forward`` with ``args.link``, ``args.args``, ``args.kwargs``."""

    def forward_postprocess(self, args):
        """Called after ``link.forward`` with ``args.out`` set too."""
