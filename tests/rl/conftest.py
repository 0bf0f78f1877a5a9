"""Skip every kusari.rl test module cleanly (reported as skipped) when gymnasium, the [rl] extra, is missing."""
import importlib.util

import pytest

if importlib.util.find_spec("gymnasium") is None:
    class _SkippedModule(pytest.Module):
        def collect(self):
            pytest.skip("kusari.rl needs gymnasium: pip install 'kusari[rl]'")

    def pytest_pycollect_makemodule(module_path, parent):
        # replaces the module before it is imported, so its ``import kusari.rl`` cannot fail collection
        return _SkippedModule.from_parent(parent, path=module_path)
