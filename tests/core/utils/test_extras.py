"""kusari.utils.extras: an extra's missing module is a ModuleNotFoundError naming it and the pip command."""
import sys

import pytest

from kusari.utils import extras


def test_require_extra_names_the_missing_module_and_the_install_command():
    with pytest.raises(ModuleNotFoundError, match=r"kusari.chem needs no_such_module_xyz, which is not "
                                                  r"installed; install it with: pip install 'kusari\[chem\]'") as info:
        extras.require_extra("chem", ["numpy", "no_such_module_xyz"])
    assert info.value.name == "no_such_module_xyz"     # what the reproductions catalog reads
    extras.require_extra("chem", ["numpy"])            # present: nothing raised


def test_require_extra_names_every_missing_module_in_one_sentence():
    with pytest.raises(ModuleNotFoundError) as info:
        extras.require_extra("vision", ["no_such_a_xyz", "numpy", "no_such_b_xyz", "no_such_c_xyz"])
    assert str(info.value) == ("kusari.vision needs no_such_a_xyz, no_such_b_xyz and no_such_c_xyz, which are "
                               "not installed; install them with: pip install 'kusari[vision]'")


def test_plot_report_without_matplotlib_names_the_plot_extra(monkeypatch):
    from kusari.training.extensions import _plotting
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # what an install without matplotlib sees
    with pytest.raises(ImportError, match=r"^PlotReport needs the package 'matplotlib'; install it with: "
                                          r"pip install 'kusari\[plot\]'$"):
        _plotting.new_figure("PlotReport")
