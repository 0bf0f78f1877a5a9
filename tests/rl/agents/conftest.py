"""Makes continuous_control.py, the set-up shared by the DDPG, TD3 and SAC tests, importable as
``rl_continuous_control``, and discrete_chain.py (a two-state MDP for the DQN variants) as
``rl_discrete_chain`` (tests are not on sys.path under pytest's importlib mode)."""
import importlib.util
import pathlib
import sys

if importlib.util.find_spec("gymnasium") is not None:   # else tests/rl/conftest.py skips these tests
    for _name in ("continuous_control", "discrete_chain"):
        _spec = importlib.util.spec_from_file_location(
            "rl_" + _name, pathlib.Path(__file__).with_name(_name + ".py"))
        _module = importlib.util.module_from_spec(_spec)
        sys.modules[_spec.name] = _module
        _spec.loader.exec_module(_module)
