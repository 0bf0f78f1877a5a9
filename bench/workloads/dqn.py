"""A DQN-style update: Q-network MLP 4-256-256-2, batch 64, a target-network forward without graph, the mean squared
error between the Q-values of the taken actions and the one-step targets, backward, and an Adam step."""
from bench.workloads import _mlp
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "DQN update, MLP 4-256-256-2, batch 64, Adam"
OPS_PER_STEP = 1
PARAMS = {"batch": 64}
SIZES = (4, 256, 256, 2)
GAMMA = 0.99


def _chainer_style(api: ChainerAPI, batch):
    np, F = api.np, api.F
    q_function = _mlp.chainer_mlp(api, SIZES)
    target = q_function.copy(mode="copy")
    optimizer = api.optimizers.Adam()
    optimizer.setup(q_function)
    obs, next_obs = api.normal(batch, SIZES[0]), api.normal(batch, SIZES[0])
    action = api.labels(SIZES[-1], batch)
    reward = api.normal(batch)
    not_done = (api.rng.random(batch) > 0.1).astype(np.float32)

    def step():
        with api.core.no_backprop_mode():
            next_q = target(next_obs).array
        y = reward + GAMMA * not_done * next_q.max(axis=1)
        loss = F.mean_squared_error(F.select_item(q_function(obs), action), y)
        q_function.cleargrads()
        loss.backward()
        optimizer.update()
    return step


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    import copy
    torch = torch_api()
    q_function = _mlp.torch_mlp(torch, SIZES)
    target = copy.deepcopy(q_function)
    optimizer = torch.optim.Adam(q_function.parameters())
    obs, next_obs = torch.randn(batch, SIZES[0]), torch.randn(batch, SIZES[0])
    action = torch.randint(0, SIZES[-1], (batch,))
    reward = torch.randn(batch)
    not_done = (torch.rand(batch) > 0.1).float()

    def step():
        with torch.no_grad():
            y = reward + GAMMA * not_done * target(next_obs).max(dim=1).values
        q_taken = q_function(obs).gather(1, action[:, None])[:, 0]
        loss = torch.nn.functional.mse_loss(q_taken, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return step
