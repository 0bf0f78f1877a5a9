"""to_factorized_noisy: every Linear at any depth of a Chain, ChainList or Sequential becomes a
FactorizedNoisyLinear of its sizes; other links and functions stay."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import optimizers
from kusari.rl import nn, q_functions, utils


class Net(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(1, 2, 3)
            self.body = kusari.Sequential(L.Linear(8, 6), F.relu, L.Linear(6, 4, nobias=True))
            self.heads = kusari.ChainList(L.Linear(4, 2), nn.MLP(4, 1, [3]))
            self.scale = L.Scale(axis=1, W_shape=(1,))

    def forward(self, x):
        h = F.reshape(self.conv(x), (x.shape[0], 8))
        h = self.body(h)
        return F.concat([self.heads[0](h), self.heads[1](h)], axis=1) * self.scale.W


def test_replaces_every_linear_at_any_depth():
    utils.set_random_seed(0)
    net = Net()
    kept = {"conv": net.conv, "scale": net.scale}
    nn.to_factorized_noisy(net, sigma_scale=0.25)
    assert net.conv is kept["conv"] and net.scale is kept["scale"]
    noisy = {name: link for name, link in net.namedlinks() if isinstance(link, nn.FactorizedNoisyLinear)}
    assert sorted(noisy) == ["/body/0", "/body/1", "/heads/0", "/heads/1/hidden_layers/0", "/heads/1/output"]
    sizes = {name: (link.in_size, link.out_size, link.mu.b is None) for name, link in noisy.items()}
    assert sizes == {"/body/0": (8, 6, False), "/body/1": (6, 4, True), "/heads/0": (4, 2, False),
                     "/heads/1/hidden_layers/0": (4, 3, False), "/heads/1/output": (3, 1, False)}
    assert all(link.sigma_scale == 0.25 for link in noisy.values())
    assert net.body[1] is F.relu   # the Sequential's function kept its place
    # only noisy layers' Linears remain (their mu and sigma)
    assert {name.rsplit("/", 1)[-1] for name, link in net.namedlinks() if isinstance(link, L.Linear)} == {"mu", "sigma"}
    x = numpy.random.uniform(-1, 1, (2, 1, 4, 4)).astype(numpy.float32)
    y1, y2 = net(x).array, net(x).array
    assert y1.shape == (2, 3) and not numpy.allclose(y1, y2)


def test_optimizer_set_up_after_trains_the_noisy_parameters():
    utils.set_random_seed(1)
    net = nn.MLP(3, 2, [4])
    nn.to_factorized_noisy(net)
    opt = optimizers.SGD(lr=0.1).setup(net)
    before = {name: p.array.copy() for name, p in net.namedparams()}
    loss = F.sum(net(numpy.ones((2, 3), numpy.float32)))
    net.cleargrads()
    loss.backward()
    opt.update()
    moved = {name for name, p in net.namedparams() if not numpy.array_equal(p.array, before[name])}
    assert moved == set(before) and len(before) == 8   # mu and sigma, W and b, of both layers


def test_already_noisy_layers_stay():
    net = kusari.ChainList(L.Linear(3, 2))
    nn.to_factorized_noisy(net)
    noisy = net[0]
    nn.to_factorized_noisy(net)
    assert net[0] is noisy and type(noisy.mu) is L.Linear


def test_distributional_dueling_dqn_as_pfrl_makes_it_noisy():
    q = q_functions.DistributionalDuelingDQN(3, 5, -1.0, 1.0, n_input_channels=1)
    nn.to_factorized_noisy(q, sigma_scale=0.5)
    assert [name for name, link in q.namedlinks() if isinstance(link, nn.FactorizedNoisyLinear)] == [
        "/main_stream", "/a_stream", "/v_stream"]
    assert all(isinstance(c, L.Convolution2D) for c in q.conv_layers)


def test_bad_arguments():
    with pytest.raises(TypeError, match="to_factorized_noisy: link must be a Link, got function"):
        nn.to_factorized_noisy(F.relu)
    with pytest.raises(TypeError, match="to_factorized_noisy: link is itself a Linear"):
        nn.to_factorized_noisy(L.Linear(2, 3))
    with pytest.raises(ValueError, match="FactorizedNoisyLinear: mu_link's input size is unknown"):
        nn.to_factorized_noisy(kusari.Sequential(L.Linear(None, 3)))
