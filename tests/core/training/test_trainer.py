import numpy
import pytest

from kusari import training
from kusari.training import Extension, Trainer, make_extension


def test_runs_until_stop_trigger(make_setup, tmp_path):
    _, _, updater = make_setup()
    trainer = Trainer(updater, (2, "epoch"), out=str(tmp_path / "out"))
    trainer.run()
    assert updater.iteration == 8  # 32 examples / 8 per batch * 2 epochs
    assert updater.epoch == 2
    assert (tmp_path / "out").is_dir()


def test_extensions_run_by_priority_and_trigger(make_setup, tmp_path):
    _, _, updater = make_setup()
    calls = []

    @make_extension(trigger=(2, "iteration"), priority=training.PRIORITY_READER)
    def reader(trainer):
        calls.append(("reader", trainer.updater.iteration))

    @make_extension(priority=training.PRIORITY_WRITER)
    def writer(trainer):
        calls.append(("writer", trainer.updater.iteration))

    trainer = Trainer(updater, (4, "iteration"), out=str(tmp_path))
    trainer.extend(reader)
    trainer.extend(writer)
    trainer.run()
    assert calls == [("writer", 1), ("writer", 2), ("reader", 2), ("writer", 3), ("writer", 4), ("reader", 4)]


def test_extend_arguments_override_defaults_and_names_are_unique(make_setup, tmp_path):
    _, _, updater = make_setup()
    seen = []

    def ext(trainer):
        seen.append(trainer.updater.iteration)

    trainer = Trainer(updater, (4, "iteration"), out=str(tmp_path))
    trainer.extend(ext, trigger=(3, "iteration"))
    trainer.extend(ext, name="ext")
    assert trainer.get_extension("ext") is ext and trainer.get_extension("ext_1") is ext
    with pytest.raises(ValueError, match="no extension named 'missing'"):
        trainer.get_extension("missing")
    trainer.run()
    assert seen == [1, 2, 3, 3, 4]  # ext_1 every iteration; ext at 3 (same priority: order of extend)


def test_reporter_observes_optimizer_targets(make_setup, tmp_path):
    _, _, updater = make_setup()
    trainer = Trainer(updater, (1, "iteration"), out=str(tmp_path))
    trainer.run()
    assert set(trainer.observation) == {"main/loss", "main/accuracy"}
    # the classifier's predictor is registered as main/predictor
    name = trainer.reporter._observer_names[id(updater.get_optimizer("main").target.predictor)]
    assert name == "main/predictor"


def test_initialize_finalize_and_call_before_training(make_setup, tmp_path):
    _, _, updater = make_setup()
    log = []

    class Ext(Extension):
        def initialize(self, trainer):
            log.append(("init", trainer.updater.iteration))

        def __call__(self, trainer):
            log.append(("call", trainer.updater.iteration))

        def finalize(self):
            log.append(("fin",))

    trainer = Trainer(updater, (2, "iteration"), out=str(tmp_path))
    trainer.extend(Ext(), call_before_training=True)
    trainer.run()
    assert log == [("init", 0), ("call", 0), ("call", 1), ("call", 2), ("fin",)]
    with pytest.raises(RuntimeError, match="cannot run twice"):
        trainer.run()


def test_error_hooks_and_finalize_on_exception(make_setup, tmp_path, capsys):
    _, _, updater = make_setup()
    log = []

    class Failing(Extension):
        def __call__(self, trainer):
            if trainer.updater.iteration == 2:
                raise ZeroDivisionError("boom")

        def on_error(self, trainer, exc, tb):
            log.append(("on_error", type(exc).__name__, tb is not None))

        def finalize(self):
            log.append(("fin",))

    trainer = Trainer(updater, (5, "iteration"), out=str(tmp_path))
    trainer.extend(Failing())
    with pytest.raises(ZeroDivisionError):
        trainer.run()
    assert log == [("on_error", "ZeroDivisionError", True), ("fin",)]
    assert "boom" in capsys.readouterr().err
    assert updater.iteration == 2


def test_elapsed_time_grows_and_freezes_after_run(make_setup, tmp_path):
    _, _, updater = make_setup()
    trainer = Trainer(updater, (2, "iteration"), out=str(tmp_path))
    assert trainer.elapsed_time == 0.0
    trainer.run()
    t = trainer.elapsed_time
    assert t > 0.0 and trainer.elapsed_time == t


def test_serialize_roundtrip_restores_state(make_setup, tmp_path):
    from kusari import serializers
    _, _, updater = make_setup(shuffle=True)
    trainer = Trainer(updater, (3, "iteration"), out=str(tmp_path))
    trainer.extend(training.extensions.LogReport(trigger=(1, "iteration")))
    trainer.run()
    state = {}
    serializers.DictionarySerializer(state).save(trainer)
    assert state["updater/iteration"] == 3
    assert "updater/model:main/predictor/W" in state and "updater/optimizer:main/t" in state
    assert float(state["_snapshot_elapsed_time"]) == trainer.elapsed_time

    model2, _, updater2 = make_setup(shuffle=True)
    trainer2 = Trainer(updater2, (3, "iteration"), out=str(tmp_path))
    trainer2.extend(training.extensions.LogReport(trigger=(1, "iteration")))
    serializers.NpzDeserializer(state).load(trainer2)
    assert updater2.iteration == 3
    numpy.testing.assert_array_equal(model2.predictor.W.array, state["updater/model:main/predictor/W"])
    assert trainer2.get_extension("LogReport").log == trainer.get_extension("LogReport").log
    assert trainer2.elapsed_time == trainer.elapsed_time


def test_extend_rejects_non_callable(make_setup, tmp_path):
    _, _, updater = make_setup()
    with pytest.raises(TypeError, match="Trainer.extend: extension must be callable"):
        Trainer(updater, out=str(tmp_path)).extend(42)


def test_global_numpy_rng_is_saved_and_restored(make_setup, tmp_path):
    from kusari import serializers
    _, _, updater = make_setup()
    trainer = Trainer(updater, out=str(tmp_path))
    numpy.random.seed(123)
    numpy.random.rand(3)
    state = {}
    serializers.DictionarySerializer(state).save(trainer)
    expected = numpy.random.rand(5)
    numpy.random.seed(0)
    serializers.NpzDeserializer(state).load(trainer)
    numpy.testing.assert_array_equal(numpy.random.rand(5), expected)
    # a snapshot without the state (as Chainer writes them) loads and leaves the generator alone
    del state["numpy_random_state/keys"]
    numpy.random.seed(7)
    reference = numpy.random.rand(2)
    numpy.random.seed(7)
    serializers.NpzDeserializer(state).load(trainer)
    numpy.testing.assert_array_equal(numpy.random.rand(2), reference)


def test_global_python_rng_is_saved_and_restored(make_setup, tmp_path):
    """kusari.vision's random flips and crops draw from Python's random: a resumed run draws what the
    uninterrupted one would."""
    import random
    from kusari import serializers
    _, _, updater = make_setup()
    trainer = Trainer(updater, out=str(tmp_path))
    for gauss_pending in (False, True):
        random.seed(123)
        if gauss_pending:
            random.gauss(0, 1)   # leaves the second normal of the pair cached
        state = {}
        serializers.DictionarySerializer(state).save(trainer)
        expected = [random.random(), random.gauss(0, 1), random.randrange(10**9)]
        random.seed(0)
        serializers.NpzDeserializer(state).load(trainer)
        assert [random.random(), random.gauss(0, 1), random.randrange(10**9)] == expected
    # a snapshot without the state (as Chainer writes them) loads and leaves the generator alone
    del state["python_random_state/internal"]
    random.seed(7)
    reference = random.random()
    random.seed(7)
    serializers.NpzDeserializer(state).load(trainer)
    assert random.random() == reference
