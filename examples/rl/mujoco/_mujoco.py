"""What the MuJoCo training scripts share: the parent folder's ``_common`` and Gym scripts (whose
``build_agent`` TD3, SAC and DDPG reuse), and MuJoCo environments that say which extra is missing."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import _common  # noqa: E402


def build_parser(description: str, steps: int, eval_interval: int, zoo_name: str, eval_n_runs: int = 10):
    """``_common.build_parser`` with ``Hopper-v5`` as the env."""
    return _common.build_parser(description, env="Hopper-v5", steps=steps, eval_interval=eval_interval,
                                zoo_name=zoo_name, eval_n_runs=eval_n_runs)


def make_env(env_id: str, seed: int, test: bool = False):
    """``_common.make_env`` for a MuJoCo task; without MuJoCo (or gymnasium's other packages for
    it) the script ends with a message naming the extra to install."""
    import gymnasium

    try:
        return _common.make_env(env_id, seed, test)
    except (ImportError, gymnasium.error.DependencyNotInstalled) as e:
        sys.exit(f"error: {env_id} needs MuJoCo ({type(e).__name__}: {e}): pip install 'kusari[mujoco]'")


def gaussian_policy_and_vf(env, vf_last_gain: float):
    """PFRL's MuJoCo PPO and TRPO networks: a 64-64 tanh MLP to the mean of a Gaussian whose
    log-std is one learned parameter per action dimension (starting at 0), and a 64-64 tanh value
    MLP; orthogonal weights of gain 1 (0.01 for the policy's last layer, ``vf_last_gain`` for the
    value's), zero biases, as openai/baselines.

    Returns
    -------
    (kusari.Sequential, kusari.Sequential)
        Observations (B, obs_size) -> action distributions, and -> values (B, 1).
    """
    import kusari
    import kusari.functions as F
    import kusari.links as L
    from kusari import initializers
    from kusari.rl import policies

    obs_size, action_size = _common.space_sizes(env)

    def mlp(out_size, last_gain):
        return kusari.Sequential(
            L.Linear(obs_size, 64, initialW=initializers.Orthogonal(1.0)), F.tanh,
            L.Linear(64, 64, initialW=initializers.Orthogonal(1.0)), F.tanh,
            L.Linear(64, out_size, initialW=initializers.Orthogonal(last_gain)))

    policy = mlp(action_size, 1e-2)
    policy.append(policies.GaussianHeadWithStateIndependentCovariance(
        action_size, var_type="diagonal", var_func=lambda x: F.exp(2 * x), var_param_init=0))
    return policy, mlp(1, vf_last_gain)
