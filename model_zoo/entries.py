"""The registered zoo entries; each one"s file, checksum and metric come from the reproduction named in it.

The values are copied from ``reproductions/results/<reproduction>.full.json`` ("weights" record),
written by ``python -m reproductions run NAME --tier full``. A network entry names its
``architecture``; an agent or a predictor names its ``loader`` (see docs/reproductions.md).
"""
from kusari.model_zoo.registry import Entry, register

register(Entry(
    name="lenet5-mnist",
    architecture="kusari.model_zoo.models:LeNet5",
    params={"n_class": 10},
    file="lenet5-mnist.npz",
    sha256="a6e48551f6fdbfa37eb10e9c8cb63d630bc40daaf36632820ce6476f9fa94539",
    dataset="MNIST",
    metric={"test_error": 0.0093},
    reproduction="vision/mnist_lenet5 (full tier, seed 0)",
    commit="437ee694585b621fd84071b533844d4b751fb70c",
))

register(Entry(
    name="mnist-mlp",
    architecture="kusari.model_zoo.models:MnistMLP",
    params={"n_in": 784, "n_units": 800, "n_out": 10},
    file="mnist-mlp.npz",
    sha256="598f377ae0ecca609c7ca31c4f3d0acffb074ee5ea8b5af3de419e767e423f57",
    dataset="MNIST",
    metric={"test_error": 0.017},
    reproduction="vision/mnist_mlp (full tier, seed 0)",
    commit="437ee694585b621fd84071b533844d4b751fb70c",
))

register(Entry(
    name="dqn-cartpole",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "dqn", "env_id": "CartPole-v1", "hidden_sizes": (256, 256)},
    file="dqn-cartpole.npz",
    sha256="aaf17da3a3e311a5ad5fc13c3d2361871ac8075f6bb4804af6c8ff79a1fb71c0",
    dataset="CartPole-v1",
    metric={"mean_return": 500.0},
    reproduction="rl/cartpole_dqn (full tier, seed 0)",
    commit="8a9215f939a6e06addeb7785683aa1c3210af758",
))

register(Entry(
    name="td3-pendulum",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "td3", "env_id": "Pendulum-v1", "hidden_sizes": (400, 300)},
    file="td3-pendulum.npz",
    sha256="a7c6531a776fc826810cb7a48baea04040c16020fb07eefb99b0b5b37e9fb87b",
    dataset="Pendulum-v1",
    metric={"mean_return": -148.1},
    reproduction="rl/pendulum_td3 (full tier, seed 0)",
    commit="4d3fb105ea874112be53f2cc1a7524c9c91a024a",
))

register(Entry(
    name="ppo-lunarlander",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "ppo", "env_id": "LunarLander-v3", "hidden_sizes": (64, 64)},
    file="ppo-lunarlander.npz",
    sha256="7e64bd41f93c48072caf7dfc51703f87c25207166c39d773ca3fc715b414f2e3",
    dataset="LunarLander-v3",
    metric={"mean_return": 249.4},
    reproduction="rl/lunarlander_ppo (full tier, seed 0)",
    commit="32820d3d731aa63f5ef3ffdd111a7abfb27c9101",
))

register(Entry(
    name="sac-pendulum",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "sac", "env_id": "Pendulum-v1", "hidden_sizes": (256, 256)},
    file="sac-pendulum.npz",
    sha256="eb9044e549c1e7eb9c19dcdee15d1deecea2fcba5865aad10ba6a760ca2b61c0",
    dataset="Pendulum-v1",
    metric={"mean_return": -141.5},
    reproduction="rl/pendulum_sac (full tier, seed 0)",
    commit="ca16324b728338f986fe4b2864f48594508c829e",
))

register(Entry(
    name="a3c-cartpole",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "a3c", "env_id": "CartPole-v1", "hidden_sizes": (64, 64)},
    file="a3c-cartpole.npz",
    sha256="89458da28e1d3328b79bd46001dff8e071807d0fedb317aeb9d0c4387e7f6e9a",
    dataset="CartPole-v1",
    metric={"mean_return": 500.0},
    reproduction="rl/cartpole_a3c (full tier, seed 0)",
    commit="32820d3d731aa63f5ef3ffdd111a7abfb27c9101",
))

register(Entry(
    name="a2c-cartpole",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "a2c", "env_id": "CartPole-v1", "hidden_sizes": (64, 64)},
    file="a2c-cartpole.npz",
    sha256="38eb3347b6d2e4e72995d5fc8906aff5dcff6d0530f9e1af10a8bf9c2422461a",
    dataset="CartPole-v1",
    metric={"mean_return": 500.0},
    reproduction="rl/cartpole_a2c (full tier, seed 0)",
    commit="32820d3d731aa63f5ef3ffdd111a7abfb27c9101",
))

register(Entry(
    name="ddpg-pendulum",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "ddpg", "env_id": "Pendulum-v1", "hidden_sizes": (400, 300)},
    file="ddpg-pendulum.npz",
    sha256="16f8ad59e400e523cca9212a0de6807e228fcd833453f7cf937371287870179f",
    dataset="Pendulum-v1",
    metric={"mean_return": -151.8},
    reproduction="rl/pendulum_ddpg (full tier, seed 0)",
    commit="ca16324b728338f986fe4b2864f48594508c829e",
))

register(Entry(
    name="ppo-cartpole",
    loader="kusari.model_zoo.agents:load_agent",
    params={"kind": "ppo", "env_id": "CartPole-v1", "hidden_sizes": (64, 64)},
    file="ppo-cartpole.npz",
    sha256="bc8416257d4fdb8e10fc916db0c2b84601565a88a12562f1772d27aa260eebe0",
    dataset="CartPole-v1",
    metric={"mean_return": 500.0},
    reproduction="rl/cartpole_ppo (full tier, seed 0)",
    commit="9e5b85aebbeee2335f31d6dc51d58e0b83390a6c",
))
