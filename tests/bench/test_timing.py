import pytest

from bench import timing


class FakeClock:
    """A clock that moves only when a fake step runs."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def make_step(clock, durations):
    """A step whose i-th call takes durations[i] seconds (the last one repeats)."""
    calls = []

    def step():
        clock.now += durations[min(len(calls), len(durations) - 1)]
        calls.append(None)
    return step, calls


def test_batch_doubles_until_it_lasts_min_batch_and_median_is_per_step():
    clock = FakeClock()
    step, calls = make_step(clock, [0.25e-3])
    found = timing.measure(step, target_s=0.01, warmup=2, min_samples=3, clock=clock)
    # batches of 1 and 2 steps last 0.25 ms and 0.5 ms (< 1 ms); 4 steps last exactly 1 ms
    assert found.batch == 4
    assert found.median_s == pytest.approx(0.25e-3)
    assert found.median_us == pytest.approx(250.0)
    # 0.75 ms went to calibration, so reaching 10 ms takes ten 1 ms samples
    assert found.samples == 10
    assert len(calls) == 2 + 1 + 2 + 4 * 10


def test_slow_step_is_timed_one_call_per_sample_with_min_samples():
    clock = FakeClock()
    step, calls = make_step(clock, [2.0])
    found = timing.measure(step, target_s=0.5, warmup=3, min_samples=3, clock=clock)
    # the first warmup call already outlasts target_s, so warmup stops after it
    assert len(calls) == 1 + 3
    assert (found.batch, found.samples, found.median_s) == (1, 3, 2.0)


def test_median_ignores_outliers():
    clock = FakeClock()
    # one warmup call, then samples of 1 s, 9 s (a hiccup), 1 s
    step, _ = make_step(clock, [5.0, 1.0, 9.0, 1.0])
    found = timing.measure(step, target_s=0.5, warmup=1, min_samples=3, clock=clock)
    assert found.median_s == 1.0


@pytest.mark.parametrize("kwargs, word", [({"target_s": 0}, "target_s"), ({"warmup": 0}, "warmup"),
                                          ({"min_samples": 0}, "min_samples")])
def test_bad_settings_raise(kwargs, word):
    with pytest.raises(ValueError, match=f"measure: .*{word}"):
        timing.measure(lambda: None, **kwargs)
