"""examples/vision's demos: run without arguments, each says that it needs an image (argparse's usage
message, exit status 2), never a traceback and never a path of the developers' machine."""
import importlib.util
import pathlib

import pytest

pytest.importorskip("cv2")
pytest.importorskip("matplotlib")

DEMOS = sorted((pathlib.Path(__file__).resolve().parents[3] / "examples" / "vision").glob("demo_*.py"))


@pytest.mark.parametrize("script", DEMOS, ids=lambda p: p.name)
def test_no_arguments_asks_for_the_image(script, capsys):
    spec = importlib.util.spec_from_file_location(script.stem, script)
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    with pytest.raises(SystemExit) as info:
        demo.main([])   # parses the arguments before it builds anything
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and err.rstrip().endswith("error: the following arguments are required: image")
    assert "shared" not in script.read_text()
