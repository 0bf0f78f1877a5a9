import os
import subprocess
import sys
import threading
import warnings

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


UNREAD = {"lazy_grad_sum": True, "in_recomputing": True, "schedule_func": print}


@pytest.mark.parametrize("name", sorted(UNREAD))
def test_unread_entry_warns_once_when_set_to_a_non_default_value(name, monkeypatch):
    monkeypatch.setattr(configuration._Unread, "_warned", set())
    default = getattr(kusari.config, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with kusari.using_config(name, default):   # the default itself is silent
            pass
    with pytest.warns(UserWarning, match=f"kusari.config.{name} = .* has no effect yet") as record:
        with kusari.using_config(name, UNREAD[name]):
            assert getattr(kusari.config, name) == UNREAD[name]
    assert record[0].filename == __file__   # names the user's line, not using_config's
    assert getattr(kusari.config, name) == default
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # once per process: a second setting is silent
        setattr(kusari.config, name, UNREAD[name])
        delattr(kusari.config, name)
    assert getattr(kusari.config, name) == default


def test_unread_entry_set_globally_warns_and_reaches_every_thread(monkeypatch):
    monkeypatch.setattr(configuration._Unread, "_warned", set())
    try:
        with pytest.warns(UserWarning, match="kusari.config.lazy_grad_sum = True has no effect yet"):
            kusari.global_config.lazy_grad_sum = True
        seen = []
        t = threading.Thread(target=lambda: seen.append(kusari.config.lazy_grad_sum))
        t.start()
        t.join()
        assert seen == [True] and kusari.global_config.lazy_grad_sum is True
    finally:
        kusari.global_config.lazy_grad_sum = False
    assert kusari.config.lazy_grad_sum is False


def test_cudnn_entries_are_set_through_the_environment_without_warning():
    env = dict(os.environ, KUSARI_USE_CUDNN="never", KUSARI_CUDNN_DETERMINISTIC="1",
               KUSARI_CUDNN_ALLOW_TF32="0", KUSARI_AUTOTUNE="1")
    code = ("import kusari; c = kusari.config; "
            "print(c.use_cudnn, c.cudnn_deterministic, c.cudnn_allow_tf32, c.autotune)")
    run = subprocess.run([sys.executable, "-W", "error", "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert run.stdout.split() == ["never", "True", "False", "True"]
    assert run.stderr == ""


def test_unknown_entry_read_raises_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="no_such_entry"):
        kusari.config.no_such_entry
    with pytest.raises(AttributeError, match="no_such_entry"):
        kusari.global_config.no_such_entry
