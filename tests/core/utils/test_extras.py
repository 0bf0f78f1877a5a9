"""kusari.utils.extras: an extra's missing module is a ModuleNotFoundError naming it and the pip command."""
import pytest

from kusari.utils import extras


def test_require_extra_names_the_missing_module_and_the_install_command():
    with pytest.raises(ModuleNotFoundError, match=r"kusari.chem needs no_such_module_xyz, which is not "
                                                  r"installed; install it with: pip install 'kusari\[chem\]'") as info:
        extras.require_extra("chem", ["numpy", "no_such_module_xyz"])
    assert info.value.name == "no_such_module_xyz"     # what the reproductions catalog reads
    extras.require_extra("chem", ["numpy"])            # present: nothing raised
