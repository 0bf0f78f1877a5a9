"""What the agents share: argument and input checks, devices, batching, replay storage, statistics."""
import math
import numbers
from collections.abc import Sequence
from typing import Any

import kusari
import kusari.links as L
import numpy
from kusari import backend


def require(who: str, name: str, value: Any, ok: bool, requirement: str) -> None:
    """Raise ``ValueError("<who>: <name> must be <requirement>, got <value>")`` unless ``ok``."""
    if not ok:
        raise ValueError(f"{who}: {name} must be {requirement}, got {value!r}")


def require_positive_int(who: str, name: str, value: Any) -> None:
    """Refuse ``value`` unless it is an int (Python or NumPy, not bool) >= 1."""
    require(who, name, value, not isinstance(value, bool) and isinstance(value, (int, numpy.integer))
            and value >= 1, "an int >= 1")


def check_optimizer(who: str, name: str, optimizer: Any, link: kusari.Link, link_name: str) -> None:
    """Refuse ``optimizer`` unless it is a kusari Optimizer set up on a link holding ``link``.

    Parameters
    ----------
    who : str
        The agent's name, for the messages.
    name : str
        The optimizer's argument name.
    link_name : str
        The argument name of the link it must train.
    """
    if not isinstance(optimizer, kusari.Optimizer) or optimizer.target is None:
        raise ValueError(f"{who}: {name} must be a kusari Optimizer set up on the {link_name} "
                         f"(call {name}.setup({link_name})), got {optimizer!r}")
    owned = {id(p) for p in optimizer.target.params()}
    if not all(id(p) in owned for p in link.params()):
        raise ValueError(f"{who}: {name} is set up on a {type(optimizer.target).__name__} that does "
                         f"not hold the {link_name}'s parameters")


def place_model(gpu, *links: kusari.Link) -> backend.Device | None:
    """Send ``links`` to the device ``gpu`` names and return it; None on the host (no transfers).

    ``gpu`` is every agent's one spelling of a device: PFRL's GPU id (None or a negative id: the
    host), or any device kusari names elsewhere (``'@numpy'``, ``'@cupy:N'``, a Device).
    """
    if gpu is None or (type(gpu) is int and gpu < 0):
        return None
    if isinstance(gpu, bool) or not isinstance(gpu, (int, str, backend.Device)):
        raise TypeError(f"gpu must be None, a GPU id (int), a device name such as '@cupy:0' or a "
                        f"Device, got {gpu!r} ({type(gpu).__name__})")
    device = backend.get_device(gpu)
    if device.xp is numpy:
        return None
    for link in links:
        link.to_device(device)
    return device


def _signature(x: Any) -> Any:
    """Per-example shapes and dtypes of a batched model input (an array, or a tuple/dict of them)."""
    if isinstance(x, (tuple, list)):
        return tuple(_signature(v) for v in x)
    if isinstance(x, dict):
        return tuple((k, _signature(v)) for k, v in sorted(x.items()))
    return tuple(x.shape[1:]), x.dtype


def _describe(signature: Any) -> str:
    if len(signature) == 2 and isinstance(signature[1], numpy.dtype):
        return f"shape {signature[0]} and dtype {signature[1]}"
    return f"(shape, dtype) {signature}"


class ObservationCheck:
    """Refuses observations whose shape or dtype differs from the first ones the agent accepted.

    An agent checks either the raw observations (:meth:`observations`, before ``phi``) or the
    model inputs that ``batch_states`` built from them (:meth:`features`, after ``phi``). Until the
    first call that succeeds ends with :meth:`confirm`, nothing is recorded: an observation that
    the model refused does not become the reference that later, good ones are held to.

    Parameters
    ----------
    who : str
        The agent's name, for the error message.
    """

    __slots__ = ("signature", "pending", "who")

    def __init__(self, who: str):
        self.who = who
        self.signature = None
        self.pending = None  # the signature of the unconfirmed call, before any is confirmed

    def observations(self, batch_obs: Sequence[Any], where: str | None = None) -> None:
        """Check each NumPy array of ``batch_obs`` (and each object with ``__array__``, such as
        stacked frames); other observations are left to ``phi``.

        ``where`` (a method name) goes into the message after the agent's name.
        """
        self.pending = None  # a new call: what an unconfirmed one saw is no reference
        for obs in batch_obs:
            if not isinstance(obs, numpy.ndarray):
                if not hasattr(obs, "__array__"):
                    continue
                obs = numpy.asarray(obs)
            self._compare((obs.shape, obs.dtype), "", where)

    def features(self, batch: Any) -> None:
        """Check ``batch``, the output of ``batch_states`` (batch axis first), per example."""
        self.pending = None
        self._compare(_signature(batch), " after phi", None)

    def confirm(self) -> None:
        """The call checked last succeeded: its signature is the reference from now on."""
        if self.signature is None:
            self.signature = self.pending

    def _compare(self, signature: Any, stage: str, where: str | None) -> None:
        reference = self.signature if self.signature is not None else self.pending
        if reference is None:
            self.pending = signature
        elif signature != reference:
            who = self.who if where is None else f"{self.who}.{where}"
            raise ValueError(f"{who}: observation of {_describe(signature)}{stage}, but the first "
                             f"one had {_describe(reference)}")


def _first_layer_input(model: kusari.Link) -> tuple[str, str, Any] | None:
    """``(name, kind, expected)`` of ``model``'s first Linear or convolution (registration order: a
    Sequential's or an MLP's first layer): a Linear's values per example, a convolution's
    ``(channels, ndim)``; None without one, or while its input size is not fixed yet (lazy)."""
    for name, link in model.namedlinks():
        if isinstance(link, L.Linear):
            return None if link.W.array is None else (name, "Linear", link.W.shape[1])
        if isinstance(link, L.ConvolutionND) and not isinstance(link, L.DeconvolutionND):
            if link.W.array is None:
                return None
            return name, type(link).__name__, (link.W.shape[1] * link.groups, link.ndim)
    return None


def check_first_layer(who: str, model: kusari.Link, batch_x: Any, cause: Exception | None = None) -> None:
    """Raise a ValueError naming what ``model``'s first layer takes and the observations' shape when
    the batch ``batch_x`` does not fit that layer (an agent built for another environment, e.g. a zoo
    agent for CartPole given Acrobot's observations); ``cause`` is the model's own refusal, if any.
    Return when it fits, or when the model has no such layer to tell.
    """
    first = _first_layer_input(model) if hasattr(batch_x, "shape") else None
    if first is None:
        return
    name, kind, expected = first
    shape = tuple(batch_x.shape[1:])
    if kind == "Linear":
        size = int(numpy.prod(shape))
        if size == expected:
            return
        got, takes = f"shape {shape} after phi ({size} values)", f"{expected} values per observation"
    else:
        channels, ndim = expected
        if len(shape) == ndim + 1 and shape[0] == channels:
            return
        got = f"shape {shape} after phi"
        spatial = {1: "L", 2: "H, W", 3: "D, H, W"}.get(ndim, f"{ndim} spatial axes")
        takes = f"observations of shape ({channels}, {spatial}) (channels first)"
    raise ValueError(f"{who}: observations of {got} do not fit the model: its first layer "
                     f"{name} ({kind}) takes {takes}; was the agent built for another "
                     "environment?") from cause


class refused_input:  # noqa: N801 (a context manager, named as contextlib's are)
    """``with refused_input(who, model, batch_x):`` around a forward of ``model`` on ``batch_x``: a
    ValueError from it becomes :func:`check_first_layer`'s when the observations do not fit the
    model's first layer. A class, not a generator: it runs at every act (0.7 us, not 4.3, of a
    227 us DQN act on CartPole)."""

    __slots__ = ("who", "model", "batch_x")

    def __init__(self, who: str, model: kusari.Link, batch_x: Any):
        self.who, self.model, self.batch_x = who, model, batch_x

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is not None and issubclass(kind, ValueError):
            check_first_layer(self.who, self.model, self.batch_x, error)
        return False  # the model's own error goes on


_REAL = (float, int, numpy.floating, numpy.integer)  # bool is an int
_BOOL = (bool, numpy.bool_)


def check_step(who: str, batch_obs: Sequence[Any], batch_reward: Sequence[Any],
               batch_done: Sequence[Any], batch_reset: Sequence[Any], n: int | None = None) -> None:
    """Refuse an observed step before anything of it is recorded.

    The four sequences must have one length (``n`` when given: the agent's number of
    environments), each reward must be a finite real number (a NaN stored in a replay buffer would
    poison every later update) and each done and reset a bool (or 0/1).
    """
    size = len(batch_obs)
    if not size == len(batch_reward) == len(batch_done) == len(batch_reset) or n not in (None, size):
        lengths = (size, len(batch_reward), len(batch_done), len(batch_reset))
        expected = "one length" if n is None else f"length {n}"
        raise ValueError(f"{who}: batch_obs, batch_reward, batch_done and batch_reset must have "
                         f"{expected}, got lengths {lengths}")
    for i, reward in enumerate(batch_reward):
        # the common types first: this runs at every environment step
        if not (isinstance(reward, _REAL) or isinstance(reward, numbers.Real)
                or numpy.ndim(reward) == 0 and numpy.asarray(reward).dtype.kind in "biuf") \
                or not math.isfinite(reward):
            raise ValueError(f"{who}: reward {i} must be a finite real number, got {reward!r}")
    for name, flags in (("done", batch_done), ("reset", batch_reset)):
        for i, flag in enumerate(flags):
            if not (isinstance(flag, _BOOL) or numpy.ndim(flag) == 0
                    and numpy.asarray(flag).dtype.kind in "biu" and flag in (0, 1)):
                raise ValueError(f"{who}: {name} {i} must be a bool, got {flag!r}")


def split_policy_and_value(who: str, out: Any, batch_size: int) -> tuple[Any, kusari.Variable]:
    """``(action distribution, value)`` from a model's output, refused unless it has that form.

    The value must be a Variable of shape (batch_size, 1), as PFRL's models return.
    """
    if not (isinstance(out, tuple) and len(out) == 2 and hasattr(out[0], "log_prob")
            and isinstance(out[1], kusari.Variable)):
        raise TypeError(f"{who}: the model must return (action distribution, value), e.g. a "
                        f"kusari.rl.nn.Branched of a policy head and a value network; got "
                        f"{type(out).__name__}")
    if out[1].shape != (batch_size, 1):
        raise ValueError(f"{who}: the model's value must have shape ({batch_size}, 1) for "
                         f"{batch_size} observations, got {out[1].shape}")
    return out


def concat_batches(parts: Sequence[Any]) -> Any:
    """Concatenate batched model inputs (arrays, or tuples/dicts of arrays) along the batch axis."""
    first = parts[0]
    if isinstance(first, (tuple, list)):
        return tuple(concat_batches([p[i] for p in parts]) for i in range(len(first)))
    if isinstance(first, dict):
        return {k: concat_batches([p[k] for p in parts]) for k in first}
    return backend.get_array_module(first).concatenate(parts)


def store_transition(replay_buffer, last_obs: list, last_action: list, env_id: int, obs: Any,
                     reward: float, done: bool, reset: bool, **extra: Any) -> None:
    """Append environment ``env_id``'s step from ``last_obs[env_id]`` to ``obs`` to ``replay_buffer``
    (with the fields ``extra``, e.g. a recurrent agent's states).

    When the episode ends (``done`` or ``reset``), the environment's last observation and action
    are cleared and the buffer's episode is stopped. Nothing is stored for an environment that has
    not acted in this episode yet (an episode may end before the environment's first act).
    """
    if env_id >= len(last_obs) or last_obs[env_id] is None:
        return
    replay_buffer.append(state=last_obs[env_id], action=last_action[env_id], reward=reward,
                         next_state=obs, next_action=None, is_state_terminal=done, env_id=env_id,
                         **extra)
    if reset or done:
        last_obs[env_id] = None
        last_action[env_id] = None
        replay_buffer.stop_current_episode(env_id=env_id)


def mean_or_nan(xs: Sequence[float]) -> float:
    """The mean of ``xs`` as a float; NaN when it is empty (a statistic before any update)."""
    return float(numpy.mean(xs)) if xs else math.nan
