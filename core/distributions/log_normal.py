"""LogNormal: the distribution of exp(Y) for a normal Y ~ N(mu, sigma^2)."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.distributions.normal import _HALF_LOG_2PI, gaussian_kl


class LogNormal(_util.ScalarDistribution):
    """Log-normal distribution: ``log(X) ~ N(mu, sigma^2)``.

    Parameters
    ----------
    mu : float array or Variable, the mean of ``log(X)``.
    sigma : float array or Variable, positive, the standard deviation of ``log(X)``.

    ``batch_shape`` is the broadcast shape of the parameters; ``event_shape`` is (); the support
    is the positive reals.
    """

    _param_names = ("mu", "sigma")
    _support = "positive"

    def __init__(self, mu, sigma):
        self.mu, self.sigma = _util.params("LogNormal", ("mu", "sigma"), (mu, sigma))
        self.log_sigma = F.log(self.sigma)

    def log_prob(self, x):
        log_x = F.log(self._value(x))
        z = (log_x - self.mu) / self.sigma
        return -0.5 * z ** 2 - self.log_sigma - log_x - _HALF_LOG_2PI

    def cdf(self, x):
        log_x = F.log(self._value(x))
        return F.ndtr((log_x - self.mu) / self.sigma)

    def icdf(self, x):
        return F.exp(self.mu + self.sigma * F.ndtri(self._value(x)))

    @property
    def entropy(self):
        return self.mu + self.log_sigma + (0.5 + _HALF_LOG_2PI)

    @property
    def mean(self):
        return F.exp(self.mu + 0.5 * self.sigma ** 2)

    @property
    def mode(self):
        return F.exp(self.mu - self.sigma ** 2)

    @property
    def variance(self):
        s2 = self.sigma ** 2
        return F.expm1(s2) * F.exp(2 * self.mu + s2)

    def sample_n(self, n):
        eps = _util.standard_normal(self.mu, (n,) + self.batch_shape)
        return F.exp(self.mu + self.sigma * eps)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p, q):
    # KL is invariant under the bijection exp, so it equals the KL of the underlying normals.
    return gaussian_kl(p.mu, p.log_sigma, q.mu, q.log_sigma)
