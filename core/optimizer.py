"""Optimizer machinery: Hyperparameter, per-parameter UpdateRule, Optimizer and GradientMethod.

Each Parameter gets its own UpdateRule (so hyperparameters can differ per parameter, and state such
as Adam's moments lives with the parameter). Hooks (``kusari.optimizer_hooks``) run before or
after the update. Dynamic loss scaling skips steps whose gradients overflow.
"""
import copy
import weakref

import numpy

from kusari import _tracing, backend
from kusari._backprop import backward_from
from kusari.variable import Variable


class Hyperparameter:
    """A namespace of hyperparameters that falls back to a parent for unset names.

    Reads are plain attribute lookups: the values inherited from the parent are mirrored into this
    object's ``__dict__`` and refreshed whenever an ancestor sets or deletes one (``_own`` names the
    values set here, which the parent's changes do not touch).
    """

    __slots__ = ("_parent", "_own", "_children", "__dict__", "__weakref__")

    def __init__(self, parent=None):
        object.__setattr__(self, "_parent", parent)
        object.__setattr__(self, "_own", set())
        object.__setattr__(self, "_children", weakref.WeakSet())
        if parent is not None:
            parent._children.add(self)
            self.__dict__.update(parent.__dict__)

    def __getattr__(self, name):
        raise AttributeError(f"hyperparameter {name!r} is not defined")

    def __setattr__(self, name, value):
        self._own.add(name)
        self.__dict__[name] = value
        self._refresh_children(name)

    def __delattr__(self, name):
        if name not in self._own:
            raise AttributeError(f"hyperparameter {name!r} is not set here")
        self._own.discard(name)
        self._inherit(name)

    def _inherit(self, name):
        """Take ``name`` from the parent again (or drop it) after it changed up the chain."""
        parent = self._parent
        if parent is not None and name in parent.__dict__:
            self.__dict__[name] = parent.__dict__[name]
        else:
            self.__dict__.pop(name, None)
        self._refresh_children(name)

    def _refresh_children(self, name):
        for child in list(self._children):
            if name not in child._own:
                child._inherit(name)

    def __getstate__(self):
        return {"parent": self._parent, "own": {k: self.__dict__[k] for k in self._own}}

    def __setstate__(self, state):
        self.__init__(state["parent"])
        for name, value in state["own"].items():
            setattr(self, name, value)

    @property
    def parent(self):
        return self._parent

    def get_dict(self) -> dict:
        """All hyperparameters, the parent's overridden by this one's."""
        return dict(self.__dict__)

    def __repr__(self):
        return f"Hyperparameter({self.get_dict()})"


class UpdateRule:
    """Updates one Parameter from its gradient; subclasses implement ``update_core_cpu/gpu`` or ``update_core``.

    ``state`` holds per-parameter arrays created by ``init_state``; ``hooks`` run before the core.
    """

    is_elementwise = False

    def __init__(self, parent_hyperparam=None):
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.enabled = True
        self.t = 0
        self._state = None
        self._hooks = {}
        self._use_fp32_update = False
        self._fp32_param = None

    @property
    def state(self):
        return self._state

    def add_hook(self, hook, name=None, timing="pre"):
        """Run ``hook(rule, param)`` before (``pre``) or after (``post``) this rule's updates."""
        if timing not in ("pre", "post"):
            raise ValueError(f"UpdateRule.add_hook: timing must be 'pre' or 'post', got {timing!r}")
        name = name or getattr(hook, "name", getattr(hook, "__name__", None))
        if name in self._hooks:
            raise KeyError(f"UpdateRule.add_hook: hook {name!r} already exists")
        self._hooks[name] = (hook, timing)

    def remove_hook(self, name):
        del self._hooks[name]

    def use_fp32_update(self, flag=True):
        """Keep a float32 master copy of a float16 parameter and update that."""
        self._use_fp32_update = flag

    def ensure_state(self, param) -> None:
        """Create the state with ``init_state(param)`` now, as the first update would, unless it exists
        (e.g. to share it between processes before training starts)."""
        if self._state is None:
            self._state = {}
            self.init_state(param)

    def init_state(self, param):
        """Create the state arrays for ``param`` (override)."""

    def update(self, param):
        """Apply one update to ``param`` (no-op when disabled or when it has no gradient)."""
        if not self.enabled:
            return
        self.t += 1
        if param._loss_scale is not None:
            if param.grad is not None:
                param.grad = param.grad / param._loss_scale
            param._loss_scale = None
        # an uninitialized parameter (a lazy link not called yet) has nothing to update in float32
        if self._use_fp32_update and param.array is not None and param.dtype == numpy.float16:
            self._update_fp32(param)
            return
        if self._state is None:
            self.ensure_state(param)
        hooks = self._hooks
        if hooks:
            for hook, timing in list(hooks.values()):
                if timing == "pre":
                    hook(self, param)
        if param._grad_var is not None:
            self.update_core(param)
        if hooks:
            for hook, timing in list(hooks.values()):
                if timing == "post":
                    hook(self, param)

    def _update_fp32(self, param):
        if self._fp32_param is None:
            self._fp32_param = Variable(param.array.astype(numpy.float32), name=param.name)
        master = self._fp32_param
        master.grad = None if param.grad is None else param.grad.astype(numpy.float32)
        if self._state is None:
            self.ensure_state(master)
        for hook, timing in self._hooks.values():
            if timing == "pre":
                hook(self, master)
        if master.grad is not None:
            self.update_core(master)
        for hook, timing in self._hooks.values():
            if timing == "post":
                hook(self, master)
        param.array[...] = master.array.astype(param.dtype)

    def update_core(self, param):
        if backend.is_gpu_array(param.array):
            self.update_core_gpu(param)
        else:
            self.update_core_cpu(param)

    def update_core_cpu(self, param):
        raise NotImplementedError(f"{type(self).__name__} implements neither update_core nor update_core_cpu")

    def update_core_gpu(self, param):
        raise NotImplementedError(f"{type(self).__name__} implements neither update_core nor update_core_gpu")

    def serialize(self, serializer):
        """Save or load ``t`` and the state arrays."""
        self.t = serializer("t", self.t)
        from kusari.serializer import Deserializer
        if self._state is None:
            if not isinstance(serializer, Deserializer):
                return
            # discover the state's keys by initializing a copy on a dummy parameter
            probe = copy.copy(self)
            probe._state = {}
            dummy = numpy.zeros(1, numpy.float32)
            probe.init_state(Variable(dummy, grad=dummy))
            loaded = {key: serializer(key, None) for key in probe._state}
            # keys missing from a non-strict load are left to init_state
            self._state = {k: v for k, v in loaded.items() if v is not None} or None
            return
        for key in sorted(self._state):
            value = self._state[key]
            loaded = serializer(key, value)
            if not (isinstance(value, numpy.ndarray) or backend.is_gpu_array(value)):
                self._state[key] = loaded

    def _to_device(self, device):
        if self._state:
            for key, value in self._state.items():
                if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
                    self._state[key] = device.send(value)
        if self._fp32_param is not None:
            self._fp32_param.to_device(device)


class Optimizer:
    """Base optimizer: owns the target link, the step counter ``t``, the epoch, hooks and loss scaling."""

    target = None
    t = 0
    epoch = 0
    _loss_scale = None
    _loss_scaling_interval = None

    def setup(self, link):
        """Attach this optimizer to ``link``; returns self."""
        from kusari.link import Link
        if not isinstance(link, Link):
            raise TypeError(f"{type(self).__name__}.setup: optimization target must be a link, "
                            f"got {type(link).__name__}")
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = {}
        self._post_update_hooks = {}
        return self

    def _check_setup(self):
        if self.target is None:
            raise RuntimeError(f"{type(self).__name__}: call setup(link) before update")

    def update(self, lossfun=None, *args, **kwds):
        raise NotImplementedError

    use_auto_new_epoch = False

    def new_epoch(self, auto=False):
        """Advance the epoch counter.

        An updater that owns epochs sets ``use_auto_new_epoch`` and calls this with ``auto=True``;
        mixing that with manual calls would count epochs twice, so it raises (as in Chainer).
        """
        if auto != self.use_auto_new_epoch:
            raise RuntimeError(
                f"{type(self).__name__}.new_epoch(auto={auto}) called while use_auto_new_epoch="
                f"{self.use_auto_new_epoch}: "
                + ("the updater advances epochs itself; do not call new_epoch by hand"
                   if self.use_auto_new_epoch else
                   "set use_auto_new_epoch (StandardUpdater(auto_new_epoch=True) does) first"))
        self.epoch += 1

    # hooks ----------------------------------------------------------------------------
    def add_hook(self, hook, name=None, timing="auto"):
        """Register ``hook(optimizer)``; ``timing`` 'pre' (before updates), 'post', or the hook's own."""
        self._check_setup()
        if not callable(hook):
            raise TypeError(f"{type(self).__name__}.add_hook: hook must be callable")
        name = name or getattr(hook, "name", None) or type(hook).__name__
        if timing == "auto":
            timing = getattr(hook, "timing", "pre")
        if timing not in ("pre", "post"):
            raise ValueError(f"{type(self).__name__}.add_hook: timing must be 'pre', 'post' or 'auto'")
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise KeyError(f"{type(self).__name__}.add_hook: hook {name!r} already exists")
        hooks = self._pre_update_hooks if timing == "pre" else self._post_update_hooks
        hooks[name] = hook
        if hasattr(hook, "added"):
            hook.added(self)
        return self

    def remove_hook(self, name):
        hook = self._pre_update_hooks.pop(name, None) or self._post_update_hooks.pop(name)
        if hasattr(hook, "deleted"):
            hook.deleted(self)

    def call_hooks(self, timing="pre"):
        """Call the hooks of ``timing``: ``hook(optimizer)``, or ``hook(rule, param)`` per parameter
        for hooks with ``call_for_each_param``."""
        hooks = self._pre_update_hooks if timing == "pre" else self._post_update_hooks
        for hook in list(hooks.values()):
            if getattr(hook, "call_for_each_param", False):
                for param in self.target.params():
                    hook(param.update_rule, param)
            else:
                hook(self)

    # loss scaling -----------------------------------------------------------------------
    def loss_scaling(self, interval=1000, scale=None):
        """Use dynamic loss scaling (``scale`` None) or a fixed ``scale`` (Chainer's schedule).

        Dynamic: start at 1, double after every finite step until the first overflow, then grow by
        2**(1/interval) per finite step; halve on an overflow, whose step is skipped. The scale stays
        within [1, 65504] (float16's largest value).
        """
        if interval < 1:
            raise ValueError(f"{type(self).__name__}.loss_scaling: interval must be at least 1, got {interval}")
        if scale is not None and not scale > 0:
            raise ValueError(f"{type(self).__name__}.loss_scaling: scale must be positive, got {scale}")
        self._loss_scaling_interval = None if scale is not None else interval
        self._loss_scale = float(scale) if scale is not None else 1.0
        self._loss_scaling_overflowed = False

    def set_loss_scale(self, loss_scale):
        self._loss_scaling_interval = None
        self._loss_scale = loss_scale

    @property
    def loss_scale(self):
        return self._loss_scale

    def check_nan_in_grads(self) -> bool:
        """Whether any gradient of the target has a NaN or Inf."""
        for param in self.target.params():
            g = param.grad
            if g is not None and not bool(backend.get_array_module(g).isfinite(g).all()):
                return True
        return False

    def is_safe_to_update(self) -> bool:
        return not self.check_nan_in_grads()

    def update_loss_scale(self) -> bool:
        """Adapt the dynamic loss scale; returns whether the step is safe to apply."""
        if self._loss_scaling_interval is None:
            return True
        safe = self.is_safe_to_update()
        if not safe:
            multiplier = 0.5
            self._loss_scaling_overflowed = True
        elif self._loss_scaling_overflowed:
            multiplier = 2.0 ** (1.0 / self._loss_scaling_interval)
        else:
            multiplier = 2.0
        self._loss_scale = min(max(self._loss_scale * multiplier, 1.0), 65504.0)
        return safe

    def serialize(self, serializer):
        self.t = serializer("t", self.t)
        self.epoch = serializer("epoch", self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, "update_rule", None)
            if rule is not None:
                rule.serialize(serializer[name])
        if self._loss_scale is not None:
            self._loss_scale = serializer("loss_scale", self._loss_scale)


class GradientMethod(Optimizer):
    """An optimizer whose update is a per-parameter UpdateRule made by ``create_update_rule``."""

    _fused_update = None   # optional: updates some parameters in one launch, returns the others

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def __getattr__(self, name):
        if name in ("hyperparam", "__setstate__", "__getstate__") or name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(self.__dict__["hyperparam"], name)
        except (KeyError, AttributeError):
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}") from None

    def __setattr__(self, name, value):
        hp = self.__dict__.get("hyperparam")
        if hp is not None and name in hp.__dict__:
            setattr(hp, name, value)
        else:
            object.__setattr__(self, name, value)

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def create_update_rule(self):
        raise NotImplementedError

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through float32 master copies."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)

    def reallocate_cleared_grads(self):
        """Give parameters that took part in no backward a zero gradient, as Chainer does (rules with
        state, e.g. momentum, still step)."""
        _zero_missing_grads(self.target.params())

    def update(self, lossfun=None, *args, **kwds):
        """One step: if ``lossfun`` is given, compute the loss, clear grads and backprop first.

        Inside a ``static_graph`` trace the parameter update is recorded and runs at every replay.
        """
        self._check_setup()
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if not isinstance(loss, Variable):
                raise TypeError(f"{type(self).__name__}.update: lossfun must return a Variable, "
                                f"got {type(loss).__name__}")
            self.target.cleargrads()
            backward_from([loss], [loss._grad_var], loss_scale=self._loss_scale, loss_scale_source=self)
            del loss
        trace = _tracing.trace_hook.current()
        if trace is not None:
            trace.record_call(self._update_params)
        else:
            self._update_params()

    def _update_params(self):
        """The update proper: loss-scale check, hooks, and every parameter's update rule."""
        params = list(self.target.params())
        if self._loss_scaling_interval is not None and not self.update_loss_scale():
            for param in params:
                param._loss_scale = None
            return
        _zero_missing_grads(params)
        if self._pre_update_hooks:
            self.call_hooks("pre")
        self.t += 1
        if self._fused_update is not None:   # a GPU fast path: what it does not update, the rules do
            params = self._fused_update(params)
        for param in params:
            rule = param.update_rule
            if rule is None:
                rule = param.update_rule = self.create_update_rule()
            rule.update(param)
        if self._post_update_hooks:
            self.call_hooks("post")


def _zero_missing_grads(params):
    for param in params:
        if param._grad_var is None and param._data is not None:
            param.zerograd()

