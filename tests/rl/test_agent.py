"""kusari.rl.agent: eval_mode, the batch-of-one defaults, and pickle-free all-or-nothing save/load."""
import io
import os
import zipfile

import numpy
import pytest

import kusari.functions as F
import kusari.links as L
from kusari import optimizers
from kusari.rl import agent as agent_module
from kusari.rl.replay_buffers import ReplayBuffer


class Counters(agent_module.AttributeSavingMixin):
    saved_attributes = ("n", "rate")

    def __init__(self):
        self.n, self.rate = 0, 0.5


class Toy(agent_module.AttributeSavingMixin, agent_module.Agent):
    saved_attributes = ("model", "target_model", "optimizer", "t", "counters", "unused")
    replay_buffer_attributes = ("replay_buffer",)

    def __init__(self, seed):
        numpy.random.seed(seed)
        self.model = L.Linear(3, 2)
        self.target_model = L.Linear(3, 2)
        self.optimizer = optimizers.Adam().setup(self.model)
        self.t = 0
        self.counters = Counters()
        self.unused = None
        self.replay_buffer = ReplayBuffer(100)

    def train_step(self):
        x = numpy.ones((4, 3), numpy.float32)
        self.optimizer.update(lambda: F.sum(self.model(x) ** 2))
        self.t += 1
        self.counters.n += 2
        self.replay_buffer.append(numpy.float32([self.t]), 1, 0.5, numpy.float32([self.t + 1]))

    def act(self, obs):
        return int(self.model(numpy.asarray([obs], numpy.float32)).array.argmax())

    def observe(self, obs, reward, done, reset):
        pass

    def get_statistics(self):
        return [("t", self.t)]


def _snapshot(agent):
    return ({name: p.array.copy() for name, p in agent.model.namedparams()},
            {name: p.array.copy() for name, p in agent.target_model.namedparams()},
            {name: p.update_rule.state[k].copy() for name, p in agent.model.namedparams()
             for k in ("m", "v")},
            agent.optimizer.t, agent.t, agent.counters.n, agent.counters.rate)


def _assert_same(a, b):
    for left, right in zip(a, b):
        if isinstance(left, dict):
            assert left.keys() == right.keys()
            for key in left:
                numpy.testing.assert_array_equal(left[key], right[key])
        else:
            assert left == right


def test_save_load_restores_networks_optimizer_and_counters(tmp_path):
    src = Toy(0)
    for _ in range(3):
        src.train_step()
    src.save(str(tmp_path / "agent"))
    assert sorted(os.listdir(tmp_path / "agent")) == ["agent.npz"]   # no buffer unless asked
    dst = Toy(1)
    dst.train_step()
    dst.load(str(tmp_path / "agent"))
    _assert_same(_snapshot(dst), _snapshot(src))
    obs = [0.3, -1.0, 2.0]
    assert dst.act(obs) == src.act(obs)
    assert len(dst.replay_buffer) == 1   # its own, untouched


def test_replay_buffer_is_saved_and_loaded_when_asked(tmp_path):
    src = Toy(0)
    for _ in range(3):
        src.train_step()
    src.save(str(tmp_path / "agent"), save_replay_buffer=True)
    dst = Toy(1)
    dst.load(str(tmp_path / "agent"))
    assert len(dst.replay_buffer) == 3
    assert [e[0]["state"][0] for e in dst.replay_buffer.memory] == [1.0, 2.0, 3.0]


def test_save_weights_leaves_optimizer_state_out_and_load_weights_keeps_the_optimizers(tmp_path):
    src = Toy(0)
    for _ in range(3):
        src.train_step()
    path = str(tmp_path / "weights.npz")
    agent_module.save_weights(src, path)
    with numpy.load(path) as saved:
        assert not any(key.startswith("optimizer/") for key in saved.files)
        assert {"model/W", "target_model/b", "t", "counters/n"} <= set(saved.files)
    dst = Toy(1)
    dst.train_step()
    own_optimizer = _snapshot(dst)[2:4]
    agent_module.load_weights(dst, path)
    _assert_same(_snapshot(dst)[:2] + _snapshot(dst)[4:], _snapshot(src)[:2] + _snapshot(src)[4:])
    _assert_same(_snapshot(dst)[2:4], own_optimizer)
    with pytest.raises(FileNotFoundError, match="load_weights: no file"):
        agent_module.load_weights(dst, str(tmp_path / "missing.npz"))


def _rewrite(path, change):
    """Rewrite the NPZ at ``path`` uncompressed, with ``change(members)`` applied to its members."""
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    change(members)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _flip_last_byte(path, member):
    """Corrupt ``member``'s stored bytes in place, so that its CRC no longer matches."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(member)
    with open(path, "r+b") as f:
        f.seek(info.header_offset + 26)
        name_length, extra_length = numpy.frombuffer(f.read(4), "<u2")
        end = info.header_offset + 30 + int(name_length) + int(extra_length) + info.compress_size
        f.seek(end - 1)
        last = f.read(1)[0]
        f.seek(end - 1)
        f.write(bytes([last ^ 0xFF]))


def _wrong_shape(members):
    victim = sorted(name for name in members if name.startswith("target_model/"))[0]
    with io.BytesIO() as buffer:
        numpy.save(buffer, numpy.zeros((5, 5), numpy.float32))
        members[victim] = buffer.getvalue()


@pytest.mark.parametrize("fault", ["crc", "shape"])
def test_a_damaged_state_file_changes_nothing(tmp_path, fault):
    src = Toy(0)
    src.train_step()
    src.save(str(tmp_path / "agent"))
    path = tmp_path / "agent" / "agent.npz"
    if fault == "crc":
        _rewrite(path, lambda members: None)
        _flip_last_byte(path, "target_model/b.npy")
    else:
        _rewrite(path, _wrong_shape)
    dst = Toy(1)
    dst.train_step()
    before = _snapshot(dst)
    with pytest.raises((OSError, ValueError), match="agent.npz"):
        dst.load(str(tmp_path / "agent"))
    _assert_same(_snapshot(dst), before)


def test_load_from_a_folder_without_state_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a folder written by save"):
        Toy(0).load(str(tmp_path))


def test_unsupported_saved_attribute_is_a_clear_error(tmp_path):
    agent = Toy(0)
    agent.t = "three"
    with pytest.raises(TypeError, match="Toy: saved attribute 't' is a str"):
        agent.save(str(tmp_path / "agent"))
    assert not (tmp_path / "agent" / "agent.npz").exists()


def test_eval_mode_restores_training_even_after_an_error():
    agent = Toy(0)
    with pytest.raises(RuntimeError), agent.eval_mode():
        assert agent.training is False
        raise RuntimeError
    assert agent.training is True


def test_batch_agent_act_and_observe_are_batches_of_one():
    class Echo(agent_module.BatchAgent):
        def __init__(self):
            self.seen = []

        def batch_act(self, batch_obs):
            return [obs * 2 for obs in batch_obs]

        def batch_observe(self, batch_obs, batch_reward, batch_done, batch_reset):
            self.seen.append((batch_obs, batch_reward, batch_done, batch_reset))

        def save(self, dirname):
            pass

        def load(self, dirname):
            pass

        def get_statistics(self):
            return []

    agent = Echo()
    assert agent.act(3) == 6
    agent.observe(1, 0.5, True, False)
    assert agent.seen == [([1], [0.5], [True], [False])]
