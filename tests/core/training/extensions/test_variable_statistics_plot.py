import numpy
import pytest

from kusari import Variable, links as L
from kusari.training.extensions import VariableStatisticsPlot
from kusari.training.extensions.variable_statistics_plot import _gather

pytest.importorskip("matplotlib")


def test_records_statistics_and_writes_png(fake_trainer, tmp_path, store_roundtrip):
    from PIL import Image
    v = Variable(numpy.arange(10, dtype=numpy.float32))
    v.grad = numpy.full(10, 2.0, numpy.float32)
    ext = VariableStatisticsPlot(v, percentile_sigmas=(0, 50, 100), trigger=(2, "iteration"))
    for _ in range(4):
        fake_trainer.step()
        ext(fake_trainer)
    assert [it for it, _ in ext._samples["data"]] == [2, 4]
    mean, std, p0, p50, p100 = ext._samples["data"][0][1]
    assert (mean, p0, p50, p100) == (4.5, 0.0, 4.5, 9.0)
    assert std == pytest.approx(numpy.arange(10).std())
    assert ext._samples["grad"][0][1][:2] == [2.0, 0.0]
    with Image.open(tmp_path / "statistics.png") as image:
        assert image.format == "PNG"
    fresh = VariableStatisticsPlot(v, percentile_sigmas=(0, 50, 100), trigger=(2, "iteration"))
    resumed = store_roundtrip(ext, fresh)
    assert resumed._samples == ext._samples


def test_subsampling_is_strided_and_links_accepted(fake_trainer):
    link = L.Linear(40, 50)  # 2050 parameters
    ext = VariableStatisticsPlot(link, max_sample_size=100, report_grad=False, trigger=(1, "iteration"),
                                 filename="s.png")
    fake_trainer.step()
    ext(fake_trainer)
    assert list(ext._samples) == ["data"] and len(ext._samples["data"]) == 1
    sample = _gather(link.params(), "array", 100)
    flat = numpy.concatenate([p.array.ravel() for p in link.params()])
    assert sample.size == 100 and sample[0] == flat[0] and sample[-1] == flat[-1]


def test_invalid():
    with pytest.raises(TypeError, match="VariableStatisticsPlot: targets"):
        VariableStatisticsPlot([3])
    with pytest.raises(ValueError, match="both False"):
        VariableStatisticsPlot(Variable(numpy.zeros(1, numpy.float32)), report_data=False, report_grad=False)
