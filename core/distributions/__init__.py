"""kusari.distributions: probability distributions with differentiable densities and KL."""
from kusari.distribution import Distribution, cross_entropy, kl_divergence, register_kl  # NOQA
from kusari.distributions.bernoulli import Bernoulli  # NOQA
from kusari.distributions.beta import Beta  # NOQA
from kusari.distributions.categorical import Categorical  # NOQA
from kusari.distributions.cauchy import Cauchy  # NOQA
from kusari.distributions.chisquare import Chisquare  # NOQA
from kusari.distributions.dirichlet import Dirichlet  # NOQA
from kusari.distributions.exponential import Exponential  # NOQA
from kusari.distributions.gamma import Gamma  # NOQA
from kusari.distributions.geometric import Geometric  # NOQA
from kusari.distributions.gumbel import Gumbel  # NOQA
from kusari.distributions.independent import Independent  # NOQA
from kusari.distributions.laplace import Laplace  # NOQA
from kusari.distributions.log_normal import LogNormal  # NOQA
from kusari.distributions.multivariate_normal import MultivariateNormal  # NOQA
from kusari.distributions.normal import Normal  # NOQA
from kusari.distributions.one_hot_categorical import OneHotCategorical  # NOQA
from kusari.distributions.pareto import Pareto  # NOQA
from kusari.distributions.poisson import Poisson  # NOQA
from kusari.distributions.uniform import Uniform  # NOQA
from kusari.distributions._util import standard_normal  # NOQA
