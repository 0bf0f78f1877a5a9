"""Distribution: the interface of probability distributions, and the KL-divergence registry.

A sample has shape ``sample_shape + batch_shape + event_shape``: ``sample_shape`` indexes i.i.d.
draws, ``batch_shape`` independent but differently parameterized distributions, and
``event_shape`` the dimensions of one draw. ``log_prob`` and friends take such an array and
return one value per draw and batch member, of shape ``sample_shape + batch_shape``.
"""

from kusari import backend, utils


class Distribution:
    """Base class of probability distributions; subclasses implement what has a closed form.

    Every method and property computed from Variables is differentiable. A method a subclass
    does not implement raises NotImplementedError naming the subclass.
    """

    def _missing(self, what: str):
        return NotImplementedError(f"{type(self).__name__} does not implement {what}")

    @property
    def batch_shape(self) -> tuple:
        """Shape of the batch of independent distributions this object holds."""
        raise self._missing("batch_shape")

    @property
    def event_shape(self) -> tuple:
        """Shape of one draw of one distribution of the batch."""
        raise self._missing("event_shape")

    @property
    def params(self) -> dict:
        """The parameters as a dict of Variables (name -> Variable of ``batch_shape`` (+ event))."""
        raise self._missing("params")

    @property
    def xp(self):
        """numpy or cupy, whichever holds the parameters."""
        return backend.get_array_module(next(iter(self.params.values())).array)

    def log_prob(self, x):
        """Log density (or log mass) at ``x`` (sample_shape + batch_shape + event_shape)."""
        raise self._missing("log_prob")

    def prob(self, x):
        """Density (or mass) at ``x``: ``exp(log_prob(x))``, of shape sample_shape + batch_shape."""
        from kusari.functions import exp
        return exp(self.log_prob(x))

    def cdf(self, x):
        """Cumulative distribution function at ``x``."""
        raise self._missing("cdf")

    def log_cdf(self, x):
        """Logarithm of the cumulative distribution function at ``x``."""
        from kusari.functions import log
        return log(self.cdf(x))

    def survival_function(self, x):
        """``1 - cdf(x)``."""
        return 1.0 - self.cdf(x)

    def log_survival_function(self, x):
        """Logarithm of the survival function at ``x``."""
        from kusari.functions import log
        return log(self.survival_function(x))

    def icdf(self, x):
        """Inverse cumulative distribution function at probabilities ``x``."""
        raise self._missing("icdf")

    def perplexity(self, x):
        """``exp(-log_prob(x))``."""
        from kusari.functions import exp
        return exp(-self.log_prob(x))

    @property
    def entropy(self):
        """Entropy, of shape batch_shape."""
        raise self._missing("entropy")

    @property
    def mean(self):
        """Mean, of shape batch_shape + event_shape."""
        raise self._missing("mean")

    @property
    def mode(self):
        """Mode, of shape batch_shape + event_shape."""
        raise self._missing("mode")

    @property
    def variance(self):
        """Variance (elementwise), of shape batch_shape + event_shape."""
        raise self._missing("variance")

    @property
    def stddev(self):
        """Standard deviation, the square root of ``variance``."""
        from kusari.functions import sqrt
        return sqrt(self.variance)

    @property
    def covariance(self):
        """Covariance matrix, of shape batch_shape + event_shape + event_shape."""
        raise self._missing("covariance")

    @property
    def support(self) -> str:
        """A short description of the set the distribution lives on (e.g. ``'real'``)."""
        raise self._missing("support")

    def sample(self, sample_shape=()):
        """Draw samples of shape ``sample_shape + batch_shape + event_shape`` (a Variable).

        ``sample_shape`` is an int or a tuple of ints. Samples of continuous distributions with a
        location-scale form are reparameterized: they carry gradients to the parameters.
        """
        sample_shape = self._sample_shape(sample_shape)
        n = utils.size_of_shape(sample_shape)
        samples = self.sample_n(n)
        return samples.reshape(sample_shape + samples.shape[1:])

    def _sample_shape(self, sample_shape) -> tuple:
        """``sample_shape`` (an int or a sequence of ints) as a tuple of non-negative ints, or a
        ValueError naming the distribution."""
        if isinstance(sample_shape, int):
            sample_shape = (sample_shape,)
        sample_shape = tuple(sample_shape)
        if any(not isinstance(s, int) or s < 0 for s in sample_shape):
            raise ValueError(f"{type(self).__name__}.sample: sample_shape must hold non-negative "
                             f"ints, got {sample_shape}")
        return sample_shape

    def sample_n(self, n: int):
        """Draw ``n`` samples: a Variable of shape (n,) + batch_shape + event_shape."""
        raise self._missing("sample_n")


_KL_REGISTRY: dict = {}


def register_kl(dist1, dist2):
    """Decorator registering ``f(p, q)`` as ``KL(p || q)`` for p of type ``dist1``, q of ``dist2``.

    ``f`` returns a Variable of the (common) batch shape. Lookup walks both MROs, so a function
    registered for base classes serves their subclasses unless a closer match exists.
    """
    for d in (dist1, dist2):
        if not (isinstance(d, type) and issubclass(d, Distribution)):
            raise TypeError(f"register_kl: expected Distribution subclasses, got {d!r}")

    def decorator(f):
        _KL_REGISTRY[dist1, dist2] = f
        return f
    return decorator


def kl_divergence(dist1: Distribution, dist2: Distribution):
    """``KL(dist1 || dist2)`` computed by the function registered for their types.

    Returns a Variable of shape batch_shape. Raises NotImplementedError where no pair matches.
    """
    for t1 in type(dist1).__mro__:
        for t2 in type(dist2).__mro__:
            f = _KL_REGISTRY.get((t1, t2))
            if f is not None:
                return f(dist1, dist2)
    raise NotImplementedError(f"kl_divergence: no KL registered for ({type(dist1).__name__}, "
                              f"{type(dist2).__name__})")


def cross_entropy(dist1: Distribution, dist2: Distribution):
    """Cross entropy ``H(dist1, dist2) = H(dist1) + KL(dist1 || dist2)``, of shape batch_shape."""
    return dist1.entropy + kl_divergence(dist1, dist2)
