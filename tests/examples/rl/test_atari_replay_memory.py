"""examples/rl/atari/measure_replay_memory.py's fill: a replay buffer of Pong transitions keeps
each 84x84 frame once, and its memory per transition stays under the 8 GB per 10**6 goal."""
import os
import sys
import tracemalloc

import pytest

pytest.importorskip("ale_py", reason="needs ale-py: pip install 'kusari[atari]'")
pytest.importorskip("cv2", reason="needs OpenCV: pip install 'kusari[atari]'")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "rl", "atari"))
import measure_replay_memory  # noqa: E402

from kusari.rl.wrappers import atari_wrappers  # noqa: E402


def test_each_frame_is_stored_once_and_a_transition_takes_under_8000_bytes():
    env = atari_wrappers.wrap_deepmind(atari_wrappers.make_atari("ALE/Pong-v5", max_frames=2000))
    measure_replay_memory.fill(env, 50, seed=0)  # first calls: lazy imports and caches
    tracemalloc.start()
    try:
        buffer, episodes = measure_replay_memory.fill(env, 1500, seed=1)
        traced = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    frames = {id(f) for (t,) in buffer.memory for key in ("state", "next_state") for f in t[key]}
    # one new frame per step, and one first frame per episode (it fills the stack's 4 slots)
    assert episodes > 1 and len(frames) == len(buffer) + episodes
    # 84 * 84 = 7056 B of pixels; measured 7786 B on a 50,000 fill (7.79 GB per 10**6)
    assert traced / len(buffer) < 8000, traced / len(buffer)


def test_the_dqn_script_agent_stores_lazy_frames_shared_between_transitions():
    import train_dqn_ale
    import _atari

    args = train_dqn_ale.parse_args(["--replay-start-size", "1000", "--seed", "3"])
    env = _atari.make_env(args.env, args.seed, max_frames=400)
    agent = train_dqn_ale.build_agent(args, env)
    obs, _ = env.reset()
    for _ in range(30):
        obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
        agent.observe(obs, reward, terminated, truncated)
    transitions = [t for (t,) in agent.replay_buffer.memory]
    assert len(transitions) == 30
    assert all(isinstance(t["state"], atari_wrappers.LazyFrames) for t in transitions)
    # the observation after a step is the one the next transition starts from, not a copy
    assert all(a["next_state"] is b["state"] for a, b in zip(transitions, transitions[1:]))
