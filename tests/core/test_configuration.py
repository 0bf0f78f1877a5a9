import os
import subprocess
import sys
import threading

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import configuration


def test_using_config_is_thread_local_and_restores():
    seen = []
    with kusari.using_config("train", False):
        t = threading.Thread(target=lambda: seen.append(kusari.config.train))
        t.start()
        t.join()
        assert kusari.config.train is False
    assert seen == [True]
    assert kusari.config.train is True


def test_global_config_changes_every_thread_default():
    old = kusari.global_config.type_check
    try:
        kusari.global_config.type_check = False
        seen = []
        t = threading.Thread(target=lambda: seen.append(kusari.config.type_check))
        t.start()
        t.join()
        assert seen == [False] and kusari.config.type_check is False
    finally:
        kusari.global_config.type_check = old


def test_nested_using_config_restores_outer_value():
    with kusari.using_config("debug", True):
        with kusari.using_config("debug", False):
            assert kusari.config.debug is False
        assert kusari.config.debug is True
    assert kusari.config.debug is configuration.LocalConfig.debug


@pytest.mark.filterwarnings("ignore:invalid value encountered in log:RuntimeWarning")  # the NaN it checks
def test_debug_mode_names_the_op_that_produced_nan():
    x = kusari.Variable(numpy.array([-1.0, 1.0], numpy.float32))
    with kusari.using_config("debug", True):
        with pytest.raises(RuntimeError, match="NaN or Inf detected in output 0 of Log"):
            F.log(x)
    F.log(x)  # without debug, NaN passes through silently as in NumPy


def test_set_debug_and_is_debug_are_this_threads_config_debug():
    with kusari.using_config("debug", False):  # restores this thread's entry afterwards
        assert kusari.is_debug() is False
        kusari.set_debug(True)
        assert kusari.config.debug is True and kusari.is_debug() is True
        seen = []
        t = threading.Thread(target=lambda: seen.append(kusari.is_debug()))
        t.start()
        t.join()
        assert seen == [configuration.LocalConfig.debug]  # other threads keep the default
        kusari.set_debug(False)
        assert kusari.config.debug is False and kusari.is_debug() is False


def test_environment_variables_set_defaults():
    code = ("import kusari; print(kusari.config.debug, kusari.config.dtype, "
            "kusari.get_dtype())")
    env = dict(os.environ, KUSARI_DEBUG="1", KUSARI_DTYPE="float64")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "float64", "float64"]


def test_show_lists_entries(capsys):
    kusari.config.show()
    text = capsys.readouterr().out
    assert "enable_backprop" in text and "use_cudnn" in text


def test_get_dtype_mixed16_means_float16():
    with kusari.using_config("dtype", "mixed16"):
        assert kusari.get_dtype() == numpy.float16
