"""Copying a link's values into a link of the same structure: how target networks follow their sources.

Both copies cover the parameters and the persistent values (BatchNormalization's running mean and
variance and its batch counter ``N``), as PFRL's copy the whole ``state_dict``. The soft copy moves
the floating-point ones and takes over the others (integer arrays, Python counters), which is what
PFRL's ``soft_copy_param`` means to do for ``num_batches_tracked``.
"""
import kusari
from kusari import backend
from kusari.serializer import Serializer


def copy_param(target_link: kusari.Link, source_link: kusari.Link) -> None:
    """Copy every parameter and persistent value of ``source_link`` into ``target_link``.

    Parameters
    ----------
    target_link : Link
        Overwritten in place (its arrays keep their identity and dtype).
    source_link : Link
        A link of the same structure; parameters of equal shapes.
    """
    target_link.copyparams(source_link, copy_persistent=True)


def soft_copy_param(target_link: kusari.Link, source_link: kusari.Link, tau: float) -> None:
    """Move ``target_link`` a fraction ``tau`` towards ``source_link`` (Polyak averaging).

    Each floating-point parameter or persistent array becomes ``(1 - tau) * target + tau * source``,
    in place and in its own dtype; any other persistent value (an integer array, a Python counter)
    is taken from the source.

    Parameters
    ----------
    target_link : Link
        Updated in place.
    source_link : Link
        A link of the same structure; arrays of equal shapes.
    tau : float
        The step, in [0, 1].
    """
    if tau is None or not 0 <= tau <= 1:
        raise ValueError(f"soft_copy_param: tau must be a float in [0, 1], got {tau!r}")
    source: dict = {}
    source_link.serialize(_ValueCollector(source))
    target_link.serialize(_SoftUpdater(source, tau))


def synchronize_parameters(src: kusari.Link, dst: kusari.Link, method: str,
                           tau: float | None = None) -> None:
    """Make ``dst`` (a target network) follow ``src``: :func:`copy_param` or :func:`soft_copy_param`.

    Parameters
    ----------
    src, dst : Link
        Links of the same structure; ``dst`` is updated in place.
    method : {'hard', 'soft'}
    tau : float, optional
        The soft update's step, in [0, 1]; only read by ``'soft'``.
    """
    if method == "hard":
        copy_param(dst, src)
    elif method == "soft":
        soft_copy_param(dst, src, tau)
    else:
        raise ValueError(f"synchronize_parameters: method must be 'hard' or 'soft', got {method!r}")


class _ValueCollector(Serializer):
    """Gathers a link's parameter arrays and persistent values by path, without copying them."""

    def __init__(self, target: dict, path: str = ""):
        self.target = target
        self.path = path

    def __getitem__(self, key):
        return _ValueCollector(self.target, self.path + key + "/")

    def __call__(self, key, value):
        self.target[self.path + key] = value
        return value


class _SoftUpdater(Serializer):
    """Visits a link's values and moves each towards the collected source value of the same path."""

    def __init__(self, source: dict, tau: float, path: str = ""):
        self.source = source
        self.tau = tau
        self.path = path

    def __getitem__(self, key):
        return _SoftUpdater(self.source, self.tau, self.path + key + "/")

    def __call__(self, key, value):
        path = self.path + key
        if path not in self.source:
            raise ValueError(f"soft_copy_param: the target link has {path!r}, the source link does not")
        src = self.source[path]
        if not backend.is_array(value):
            # a Python persistent, or a parameter not initialized yet: the source's value is taken
            return src
        if src is None or src.shape != value.shape:
            raise ValueError(f"soft_copy_param: {path!r} has shape {value.shape} in the target link "
                             f"but {getattr(src, 'shape', None)} in the source link")
        if value.dtype.kind == "f":
            value *= 1 - self.tau
            value += self.tau * src
        else:
            value[...] = src
        return value
