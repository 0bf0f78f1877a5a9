import importlib
import pathlib

from kusari import _tuning
from kusari.onednn import gemm, layout
from kusari.optimizers import adam
from kusari.utils import conv_shifted

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "performance.md"


def test_docs_show_the_table():
    assert _tuning.markdown() in DOC.read_text()


def test_every_row_is_complete_and_names_a_known_machine():
    assert len(_tuning.TABLE) >= 9
    for row in _tuning.TABLE.values():
        assert getattr(_tuning, row.name) is row.value
        assert row.used_by and row.meaning and row.reason, row.name
        assert row.machine in _tuning.MACHINES, row.name


def test_users_read_the_table_not_copies():
    assert gemm.MIN_PRODUCT is _tuning.GEMM_MIN_PRODUCT
    assert gemm.MIN_SIDE is _tuning.GEMM_MIN_SIDE
    assert gemm.MIN_OPERAND is _tuning.GEMM_MIN_OPERAND
    assert layout.MIN_CHANNELS is _tuning.CHANNELS_LAST_MIN_CHANNELS
    assert conv_shifted.MIN_CHANNELS is _tuning.SHIFTED_CONV_MIN_CHANNELS
    assert conv_shifted.BLOCK_BYTES is _tuning.SHIFTED_CONV_BLOCK_BYTES
    assert adam.FLUSH_INTERVAL is _tuning.ADAM_FLUSH_INTERVAL
    relu = importlib.import_module("kusari.functions.activation.relu")
    assert relu.RELU_ZERO_ROW is _tuning.RELU_ZERO_ROW
