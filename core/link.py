"""Link (a module with Parameters and persistent values), Chain (named children) and ChainList."""
import contextlib
import copy as copy_module
import threading
import warnings

import numpy

from kusari import _tracing, backend
from kusari.variable import Parameter

_hooks_state = threading.local()


def _global_link_hooks():
    hooks = getattr(_hooks_state, "hooks", None)
    if hooks is None:
        hooks = _hooks_state.hooks = {}
    return hooks


class StructureVersion:
    """A counter bumped whenever any Link gains, loses or replaces a Parameter or a child Link.

    Caches keyed by it (every Link's parameter list, static_graph's schedules of plain functions)
    are rebuilt after a change of structure anywhere. ``get()`` is its one accessor.
    """

    __slots__ = ("_value",)

    def __init__(self):
        self._value = 0

    def get(self) -> int:
        return self._value

    def bump(self) -> None:
        self._value += 1


structure_version = StructureVersion()


def structure_changed() -> None:
    """Invalidate every Link's cached parameter list (call after changing which Parameters or
    children a Link has by means other than attribute assignment or the container methods)."""
    structure_version.bump()


class Link:
    """A building block holding Parameters (and persistent arrays/scalars) registered in ``init_scope``.

    Subclasses assign Parameters (and, for Chain, child Links) inside ``with self.init_scope():``
    and implement ``forward``; calling the link runs ``forward`` with link hooks around it.
    """

    def __init__(self, **params):
        object.__setattr__(self, "_params", [])
        object.__setattr__(self, "_persistent", [])
        object.__setattr__(self, "_within_init_scope", False)
        object.__setattr__(self, "_local_link_hooks", None)
        object.__setattr__(self, "_device", backend.CpuDevice())
        self.name = None
        for name, value in params.items():
            # Chainer's (shape, dtype) pairs; the dtype may be a type, a numpy.dtype or a name ('d')
            shape, dtype = (value[0], value[1]) if isinstance(value, tuple) and len(value) == 2 \
                and isinstance(value[1], (type, numpy.dtype, str)) else (value, None)
            self.add_param(name, shape, dtype=dtype)

    # registration ---------------------------------------------------------------
    @property
    def within_init_scope(self) -> bool:
        return self._within_init_scope

    @contextlib.contextmanager
    def init_scope(self):
        """Within this context, assigned Parameters (and Links, for Chain) are registered."""
        old = self._within_init_scope
        object.__setattr__(self, "_within_init_scope", True)
        try:
            yield
        finally:
            object.__setattr__(self, "_within_init_scope", old)

    def __setattr__(self, name, value):
        if isinstance(value, (Parameter, Link)) or name in self._params:
            structure_changed()
        if self._within_init_scope and isinstance(value, Parameter):
            value.name = name
            if not value.is_initialized or value._initial_device != self._device:
                value.to_device(self._device)
            if name not in self._params:
                self._params.append(name)
            if name in self._persistent:
                self._persistent.remove(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        structure_changed()
        if name in self._params:
            self._params.remove(name)
        if name in self._persistent:
            self._persistent.remove(name)
        object.__delattr__(self, name)

    @classmethod
    def from_params(cls, *args, **kwargs):
        """A link initialized with the given arrays (``Linear.from_params(W, b)``); links that support it override this."""
        raise NotImplementedError(f"{cls.__name__} does not implement from_params")

    def add_param(self, name, shape=None, dtype=numpy.float32, initializer=None):
        """Register a new Parameter ``name`` (Chainer's old-style registration)."""
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__}.add_param: attribute {name!r} already exists")
        from kusari import initializers
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Register ``value`` (array or scalar) as persistent: serialized and moved with the link."""
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__}.add_persistent: attribute {name!r} already exists")
        self._persistent.append(name)
        object.__setattr__(self, name, value)

    def register_persistent(self, name):
        """Mark an existing attribute as persistent."""
        if not hasattr(self, name):
            raise AttributeError(f"{type(self).__name__}.register_persistent: no attribute {name!r}")
        if name not in self._persistent:
            self._persistent.append(name)

    # traversal --------------------------------------------------------------------
    def params(self, include_uninit=True):
        """All Parameters of this link and its descendants, in ``namedparams`` order."""
        cache = self.__dict__.get("_params_cache")
        version = structure_version._value   # get() without the call: this runs on every update
        if cache is None or cache[0] != version or cache[1] != id(self):
            found = []
            self._collect_params(found)
            # Keyed by this object's id too: a shallow copy of the link must not reuse it.
            cache = (version, id(self), found)
            object.__setattr__(self, "_params_cache", cache)
        if include_uninit:
            return iter(cache[2])
        return iter([param for param in cache[2] if param._data is not None])

    def _collect_params(self, out):
        # One list filled depth-first: no path strings and no generator per link.
        d = self.__dict__
        for name in self._params:
            out.append(d[name])
        for child in self.children():
            child._collect_params(out)

    def namedparams(self, include_uninit=True):
        """(path, Parameter) pairs, paths like ``/child/W``."""
        d = self.__dict__
        for name in self._params:
            if include_uninit or d[name].is_initialized:
                yield "/" + name, d[name]

    def links(self, skipself=False):
        for _, link in self.namedlinks(skipself):
            yield link

    def namedlinks(self, skipself=False):
        if not skipself:
            yield "/", self

    def children(self):
        return iter(())

    def count_params(self) -> int:
        """Total number of elements of initialized parameters."""
        total = 0
        for param in self.params():
            if param.is_initialized:
                total += param.size
            else:
                warnings.warn(f"{param.name} is not initialized and is not counted", stacklevel=2)
        return total

    # gradients and updates --------------------------------------------------------
    def cleargrads(self):
        """Set every parameter's gradient to None (replayed by a ``static_graph`` that calls it)."""
        trace = _tracing.trace_hook.current()
        if trace is not None:
            trace.record_call(self.cleargrads)
            return
        for param in self.params():
            param._grad_var = None

    def zerograds(self):
        """Deprecated in Chainer too: prefer cleargrads."""
        trace = _tracing.trace_hook.current()
        if trace is not None:
            trace.record_call(self.zerograds)
            return
        for param in self.params():
            param.zerograd()

    def addgrads(self, link):
        """Add the gradients of ``link``'s parameters (same structure) into this link's."""
        src = dict(link.namedparams())
        for name, dst in self.namedparams():
            if name in src:
                dst.addgrad(src[name])

    def enable_update(self):
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = True

    def disable_update(self):
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = False

    @property
    def update_enabled(self) -> bool:
        for param in self.params():
            rule = param.update_rule
            if rule is not None and not rule.enabled:
                return False
        return True

    # copying ------------------------------------------------------------------------
    def copy(self, mode="share"):
        """A copy of this link: ``share`` arrays, ``copy`` them, or ``init`` fresh parameters."""
        if mode not in ("share", "copy", "init"):
            raise ValueError(f"Link.copy: mode must be 'share', 'copy' or 'init', got {mode!r}")
        ret = copy_module.copy(self)
        object.__setattr__(ret, "_params", list(self._params))
        object.__setattr__(ret, "_persistent", list(self._persistent))
        for name in self._params:
            src = self.__dict__[name]
            param = Parameter(src.initializer, name=src.name)
            if src.is_initialized:
                if mode == "share":
                    param.array = src.array
                    param._grad_var = src._grad_var
                elif mode == "copy":
                    param.array = src.array.copy()
                    if src.grad is not None:
                        param.grad = src.grad.copy()
                else:
                    param._initial_device = src._initial_device
                    param.initialize(src.shape)
            param._initial_device = src._initial_device
            object.__setattr__(ret, name, param)
        for name in self._persistent:
            value = self.__dict__[name]
            if mode != "share" and hasattr(value, "copy"):
                value = value.copy()
            object.__setattr__(ret, name, copy_module.copy(value) if mode != "share" else value)
        return ret

    def copyparams(self, link, copy_persistent=True):
        """Copy parameter (and persistent) values from ``link`` (same structure) into this link."""
        src = dict(link.namedparams())
        for name, dst in self.namedparams():
            if name not in src:
                continue
            s = src[name]
            if dst.array is None and s.array is not None:
                dst.initialize(s.shape)
            if s.array is not None:
                if dst.shape != s.shape:
                    raise ValueError(f"copyparams: {name} has shape {dst.shape} here "
                                     f"but {s.shape} in the source")
                dst.copydata(s)
        if copy_persistent:
            src_links = dict(link.namedlinks())
            for path, dst_link in self.namedlinks():
                s_link = src_links.get(path)
                if s_link is None:
                    continue
                for name in dst_link._persistent:
                    value = s_link.__dict__.get(name)
                    mine = dst_link.__dict__[name]
                    if isinstance(mine, numpy.ndarray) or backend.is_gpu_array(mine):
                        backend.copyto(mine, value)
                    else:
                        object.__setattr__(dst_link, name, copy_module.copy(value))

    def repeat(self, n_repeat, mode="init"):
        """A Sequential of ``n_repeat`` copies of this link (``mode`` as in ``copy``)."""
        from kusari.sequential import Sequential
        if n_repeat <= 0:
            return Sequential()
        return Sequential(*[self.copy(mode) for _ in range(n_repeat)])

    # devices --------------------------------------------------------------------------
    @property
    def device(self):
        return self._device

    @property
    def xp(self):
        return self._device.xp

    def to_device(self, device):
        """Move parameters and persistent arrays (recursively) to ``device``; returns self."""
        device = backend.get_device(device)
        for link in self.links():
            d = link.__dict__
            for name in link._params:
                d[name].to_device(device)
            for name in link._persistent:
                value = d[name]
                if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
                    object.__setattr__(link, name, device.send(value))
            object.__setattr__(link, "_device", device)
        return self

    def to_cpu(self):
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device=None):
        return self.to_device(backend.GpuDevice(0 if device is None else int(device)))

    # serialization ------------------------------------------------------------------
    def serialize(self, serializer):
        """Save or load parameters and persistent values through ``serializer``."""
        d = self.__dict__
        for name in self._params:
            param = d[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                param.initialize(data.shape)
                backend.copyto(param.array, data)
        for name in self._persistent:
            value = d[name]
            if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
                serializer(name, value)
            else:
                object.__setattr__(self, name, serializer(name, value))

    # hooks and calling -----------------------------------------------------------------
    @property
    def local_link_hooks(self):
        if self._local_link_hooks is None:
            object.__setattr__(self, "_local_link_hooks", {})
        return self._local_link_hooks

    def add_hook(self, hook, name=None):
        """Attach a LinkHook to this link only."""
        name = name or hook.name
        if name in self.local_link_hooks:
            raise KeyError(f"Link.add_hook: hook {name!r} already exists")
        self.local_link_hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name):
        hook = self.local_link_hooks.pop(name)
        hook.deleted(self)

    def __call__(self, *args, **kwargs):
        hooks = getattr(_hooks_state, "hooks", None)
        local = self._local_link_hooks
        if not (hooks or local):
            return self.forward(*args, **kwargs)
        hooks = {**(hooks or {}), **local} if local else hooks
        from kusari.link_hook import _ForwardPreprocessCallbackArgs, _ForwardPostprocessCallbackArgs
        pre = _ForwardPreprocessCallbackArgs(self, "forward", args, kwargs)
        for hook in hooks.values():
            hook.forward_preprocess(pre)
        out = self.forward(*args, **kwargs)
        post = _ForwardPostprocessCallbackArgs(self, "forward", args, kwargs, out)
        for hook in hooks.values():
            hook.forward_postprocess(post)
        return out

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not implement forward")

    def __repr__(self):
        shapes = ", ".join(f"{n}={getattr(self.__dict__[n], 'shape', None)}" for n in self._params)
        return f"{type(self).__name__}({shapes})"


class Chain(Link):
    """A Link whose child Links are registered by name in ``init_scope``."""

    def __init__(self, **links):
        super().__init__()
        object.__setattr__(self, "_children", [])
        for name, link in links.items():
            self.add_link(name, link)

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_children", ()):
            structure_changed()
        if self._within_init_scope and isinstance(value, Link):
            if hasattr(self, name) and name not in self._children:
                raise AttributeError(f"cannot register child link {name!r}: the attribute exists")
            value.name = name
            if name not in self._children:
                self._children.append(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in self._children:
            self._children.remove(name)
        super().__delattr__(name)

    def __getitem__(self, name):
        return getattr(self, name)

    def add_link(self, name, link):
        """Register ``link`` as child ``name`` (old-style registration)."""
        if name in self.__dict__:
            raise AttributeError(f"Chain.add_link: attribute {name!r} already exists")
        if not isinstance(link, Link):
            raise TypeError(f"Chain.add_link: {name!r} must be a Link, got {type(link).__name__}")
        with self.init_scope():
            setattr(self, name, link)

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        d = self.__dict__
        for name in self._children:
            for path, param in d[name].namedparams(include_uninit):
                yield "/" + name + path, param

    def namedlinks(self, skipself=False):
        if not skipself:
            yield "/", self
        d = self.__dict__
        for name in self._children:
            child = d[name]
            yield "/" + name, child
            for path, link in child.namedlinks(True):
                yield "/" + name + path, link

    def children(self):
        d = self.__dict__
        for name in self._children:
            yield d[name]

    def copy(self, mode="share"):
        ret = super().copy(mode)
        object.__setattr__(ret, "_children", list(self._children))
        for name in self._children:
            object.__setattr__(ret, name, self.__dict__[name].copy(mode))
        return ret

    def serialize(self, serializer):
        super().serialize(serializer)
        d = self.__dict__
        for name in self._children:
            d[name].serialize(serializer[name])

    def __repr__(self):
        lines = [f"  ({name}): " + repr(self.__dict__[name]).replace("\n", "\n  ")
                 for name in self._children]
        own = super().__repr__()[:-1]
        if not lines:
            return own + ")"
        return own + (", " if self._params else "") + "\n" + "\n".join(lines) + "\n)"


class ChainList(Link):
    """A Link whose children are an ordered list, indexed by position."""

    def __init__(self, *links):
        super().__init__()
        object.__setattr__(self, "_children", [])
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            raise TypeError("ChainList cannot register links by attribute; use append/add_link")
        super().__setattr__(name, value)

    def __getitem__(self, index):
        return self._children[index]

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def add_link(self, link):
        """Append ``link`` as the next child."""
        if not isinstance(link, Link):
            raise TypeError(f"ChainList.add_link: expected a Link, got {type(link).__name__}")
        link.name = str(len(self._children))
        self._children.append(link)
        structure_changed()

    append = add_link

    def __setitem__(self, index, link):
        """Replace the child at ``index`` by ``link`` (for a slice, the children by a sequence of Links)."""
        links = list(link) if isinstance(index, slice) and isinstance(link, (list, tuple, ChainList)) else [link]
        for item in links:
            if not isinstance(item, Link):
                raise TypeError(f"ChainList.__setitem__: expected a Link, got {type(item).__name__}")
        self._children[index] = links if isinstance(index, slice) else link
        self._rename_children()

    def __delitem__(self, index):
        """Remove the child (or children, for a slice) at ``index``; the later children move up."""
        del self._children[index]
        self._rename_children()

    def __iadd__(self, links):
        """Append every link of ``links`` (a ChainList, list or tuple)."""
        if not isinstance(links, (ChainList, list, tuple)):
            raise TypeError(f"ChainList +=: expected a ChainList, list or tuple of Links, got {type(links).__name__}")
        for link in list(links):
            self.add_link(link)
        return self

    def _rename_children(self):
        for i, child in enumerate(self._children):
            child.name = str(i)
        structure_changed()

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        for idx, child in enumerate(self._children):
            for path, param in child.namedparams(include_uninit):
                yield f"/{idx}{path}", param

    def namedlinks(self, skipself=False):
        if not skipself:
            yield "/", self
        for idx, child in enumerate(self._children):
            yield f"/{idx}", child
            for path, link in child.namedlinks(True):
                yield f"/{idx}{path}", link

    def children(self):
        return iter(self._children)

    def copy(self, mode="share"):
        ret = super().copy(mode)
        object.__setattr__(ret, "_children", [child.copy(mode) for child in self._children])
        return ret

    def serialize(self, serializer):
        super().serialize(serializer)
        for idx, child in enumerate(self._children):
            child.serialize(serializer[str(idx)])

    def __repr__(self):
        lines = [f"  ({i}): " + repr(c).replace("\n", "\n  ") for i, c in enumerate(self._children)]
        return f"{type(self).__name__}(\n" + "\n".join(lines) + "\n)" if lines else f"{type(self).__name__}()"
