import pytest

from kusari.training.extensions import PlotReport

pytest.importorskip("matplotlib")


def test_writes_png_readable_by_pillow(fake_trainer, tmp_path, store_roundtrip):
    from PIL import Image
    plot = PlotReport(["main/loss", "absent"], "iteration", trigger=(2, "iteration"), filename="loss.png")
    for loss in (1.0, 3.0, 0.5, 0.5):
        fake_trainer.step(**{"main/loss": loss})
        plot(fake_trainer)
    assert plot._data == {"main/loss": [(2, 2.0), (4, 0.5)], "absent": []}
    with Image.open(tmp_path / "loss.png") as image:
        assert image.format == "PNG"
        image.load()
        assert image.size[0] > 100 and image.size[1] > 100
    resumed = store_roundtrip(plot, PlotReport(["main/loss", "absent"], "iteration", trigger=(2, "iteration")))
    assert resumed._data == plot._data


def test_postprocess_gets_figure_and_axes(fake_trainer, tmp_path):
    seen = []
    plot = PlotReport("a", "epoch", trigger=(1, "iteration"),
                      postprocess=lambda fig, ax, summary: seen.append((ax.get_xlabel(), summary["a"])))
    fake_trainer.step(a=2.0)
    plot(fake_trainer)
    assert seen == [("epoch", 2.0)]
    assert PlotReport.available()
