import numpy

from kusari import reporter
from kusari.training.extensions import MicroAverage


def test_weighted_by_denominator(make_fake_trainer):
    trainer = make_fake_trainer(2)
    ext = MicroAverage("correct", "total", "accuracy", trigger=(1, "epoch"))
    results = []
    for correct, total in ((1, 2), (9, 10), (0, 4), (4, 4)):
        trainer.step(correct=numpy.int32(correct), total=total)
        with trainer.reporter.scope(trainer.observation):
            ext(trainer)
        results.append(trainer.observation.get("accuracy"))
    assert results == [None, 10 / 12, None, 4 / 8]


def test_serialize(make_fake_trainer, store_roundtrip):
    trainer = make_fake_trainer(2)
    ext = MicroAverage("c", "n", "r")
    trainer.step(c=3.0, n=4.0)
    ext(trainer)
    resumed = store_roundtrip(ext, MicroAverage("c", "n", "r"))
    trainer.step(c=1.0, n=4.0)
    obs = {}
    with reporter.Reporter().scope(obs):
        resumed(trainer)
    assert obs == {"r": 0.5}
