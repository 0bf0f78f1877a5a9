"""FactorizedNoisyLinear: a linear layer with factorized Gaussian noise on its weights (NoisyNet).

Fortunato et al., "Noisy Networks for Exploration" (2018), http://arxiv.org/abs/1706.10295,
section 3.2, as PFRL 0.4's ``pfrl.nn.FactorizedNoisyLinear`` builds it.
"""
import math

import kusari
import kusari.functions as F
import kusari.initializers as I
import kusari.links as L
from kusari import backend


@kusari.static_code
def factorized_noise(like: kusari.Variable, in_size: int, out_size: int):
    """One draw of a factorized noise: ``(outer(f(e_out), f(e_in)), f(e_out))``, shapes
    ``(out_size, in_size)`` and ``(out_size,)``, in ``like``'s dtype and device.

    ``e`` is ``in_size + out_size`` standard normal draws (the inputs' first, as PFRL orders them)
    and ``f(e) = sign(e) sqrt(|e|)``. A ``static_code`` function, so that a ``static_graph``
    replay draws anew.
    """
    xp = backend.get_array_module(like.array)
    e = xp.random.standard_normal(in_size + out_size).astype(like.dtype, copy=False)
    f = xp.sign(e) * xp.sqrt(xp.abs(e))
    f_in, f_out = f[:in_size], f[in_size:]
    return xp.outer(f_out, f_in), f_out


class FactorizedNoisyLinear(kusari.Chain):
    """``y = x (mu_W + sigma_W * outer(f_out, f_in))^T + mu_b + sigma_b * f_out``, new noise at every call.

    The noise is drawn from the array module's global generator (``numpy.random``; seed it with
    ``kusari.rl.utils.set_random_seed``) at every forward, in training and evaluation alike, as
    in PFRL: a noisy network explores through its own draws, so its agent needs no epsilon.

    Only ``mu_link``'s sizes, dtype and device are used; the parameters start as PFRL's:
    ``mu/W`` and ``mu/b`` from ``U(-1/sqrt(in_size), 1/sqrt(in_size))``, ``sigma/W`` at
    ``sigma_scale / sqrt(in_size)`` and ``sigma/b`` at ``sigma_scale / sqrt(out_size)`` (PFRL's
    constant for a bias takes its own length; the paper divides by ``sqrt(in_size)``).

    Parameters
    ----------
    mu_link : Linear
        A Linear whose input size is known (W initialized), e.g. the layer this one replaces.
    sigma_scale : float
        The paper's ``sigma_0``: scale of the initial noise amplitudes (PFRL's default 0.4).

    Parameters are ``/mu/W`` (out_size, in_size), ``/mu/b`` (out_size,), ``/sigma/W``, ``/sigma/b``
    (PFRL's ``mu.weight``, ``mu.bias``, ``sigma.weight``, ``sigma.bias``); no biases when
    ``mu_link`` has none.
    """

    def __init__(self, mu_link: L.Linear, sigma_scale: float = 0.4):
        super().__init__()
        if not isinstance(mu_link, L.Linear):
            raise TypeError(f"FactorizedNoisyLinear: mu_link must be a Linear, got {type(mu_link).__name__}")
        if mu_link.W.array is None:
            raise ValueError("FactorizedNoisyLinear: mu_link's input size is unknown (its W is not "
                             "initialized yet); build it with an in_size or call it once first")
        if not sigma_scale >= 0:
            raise ValueError(f"FactorizedNoisyLinear: sigma_scale must be >= 0, got {sigma_scale!r}")
        out_size, in_size = mu_link.W.shape
        dtype = mu_link.W.dtype
        nobias = mu_link.b is None
        self.in_size, self.out_size = in_size, out_size
        self.sigma_scale = sigma_scale
        bound = 1 / math.sqrt(in_size)
        with self.init_scope():
            self.mu = L.Linear(in_size, out_size, nobias, initialW=I.Uniform(bound, dtype),
                               initial_bias=I.Uniform(bound, dtype))
            self.sigma = L.Linear(in_size, out_size, nobias,
                                  initialW=I.Constant(sigma_scale / math.sqrt(in_size), dtype),
                                  initial_bias=I.Constant(sigma_scale / math.sqrt(out_size), dtype))
        self.to_device(mu_link.device)

    def forward(self, x) -> kusari.Variable:
        """``x`` (batch_size, ...) with ``in_size`` features per example (flattened, as in Linear)
        -> (batch_size, out_size), with a new noise draw."""
        if x.ndim < 1 or math.prod(x.shape[1:]) != self.in_size:
            raise ValueError(f"FactorizedNoisyLinear: x must have {self.in_size} features per example "
                             f"(shape (batch_size, {self.in_size})), got x.shape={x.shape}")
        noise_W, noise_b = factorized_noise(self.sigma.W, self.in_size, self.out_size)
        W = self.mu.W + self.sigma.W * noise_W
        b = None if self.mu.b is None else self.mu.b + self.sigma.b * noise_b
        return F.linear(x, W, b)
