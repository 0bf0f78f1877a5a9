import sys

import pytest

from bench import machine


def test_proc_field_reads_the_first_matching_line(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Test CPU @ 3.00GHz\n\nprocessor\t: 1\nmodel name\t: Other\n")
    assert machine._proc_field(str(cpuinfo), "model name") == "Test CPU @ 3.00GHz"
    assert machine._proc_field(str(cpuinfo), "flags") is None
    assert machine._proc_field(str(tmp_path / "absent"), "model name") is None


def test_describe_names_cpu_cores_date_and_commit():
    described = machine.describe()
    assert set(described) == {"CPU", "logical cores", "memory", "OS", "date (UTC)", "commit"}
    assert described["logical cores"].isdigit()


@pytest.mark.parametrize("flags,detected,expected", [
    (set(machine.AVX512_FLAGS) | {"fma"}, "Haswell", {"OPENBLAS_CORETYPE": "SkylakeX"}),
    (set(machine.AVX512_FLAGS), "Zen", {"OPENBLAS_CORETYPE": "SkylakeX"}),
    (set(machine.AVX512_FLAGS), "SkylakeX", {}),  # already AVX-512
    (set(machine.AVX512_FLAGS), "SapphireRapids", {}),  # a newer AVX-512 family: never downgraded
    ({"avx2", "fma"}, "Haswell", {}),  # no AVX-512 to gain
])
def test_openblas_override_only_fixes_avx2_kernels_on_avx512_cpus(monkeypatch, flags, detected, expected):
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.setattr(machine, "cpu_flags", lambda: flags)
    monkeypatch.setattr(machine, "detected_openblas_core", lambda python: detected)
    environment, reason = machine.openblas_override("python")
    assert environment == expected
    assert detected in reason


def test_openblas_override_leaves_a_callers_choice(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    assert machine.openblas_override("python") == ({}, "OPENBLAS_CORETYPE=Haswell set by the caller")


def test_detected_openblas_core_probes_without_the_override(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Prescott")  # would be reported if it leaked into the probe
    core = machine.detected_openblas_core(sys.executable)
    assert core != "Prescott" and core
