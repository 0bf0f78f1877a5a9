"""tests/vision: skipped cleanly where the [vision] extra is not installed."""
import importlib.util

import pytest

_MISSING = [m for m in ("PIL", "matplotlib", "cv2", "pycocotools") if importlib.util.find_spec(m) is None]
if _MISSING:
    pytest.skip(f"kusari.vision's tests need {', '.join(_MISSING)} (pip install 'kusari[vision]')",
                allow_module_level=True)
