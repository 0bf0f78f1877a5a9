import platform
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


@pytest.mark.parametrize("flags,current,expected", [
    (set(machine.AVX512_FLAGS) | {"fma"}, "Haswell", {"OPENBLAS_CORETYPE": "SkylakeX"}),
    (set(machine.AVX512_FLAGS), "Barcelona", {"OPENBLAS_CORETYPE": "SkylakeX"}),  # an old OpenBLAS
    (set(machine.AVX512_FLAGS), "SkylakeX", {}),  # already AVX-512
    (set(machine.AVX512_FLAGS), "SapphireRapids", {}),  # a newer AVX-512 family: never downgraded
    ({"avx2", "fma"}, "Haswell", {}),  # no AVX-512 to gain
])
def test_openblas_override_only_replaces_avx2_kernels_on_avx512_cpus(monkeypatch, flags, current, expected):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    monkeypatch.setattr(machine, "cpu_flags", lambda: flags)
    monkeypatch.setattr(machine, "effective_openblas_core", lambda python: current)
    environment, reason = machine.openblas_override(["python"])
    assert environment == expected
    assert current in reason and "OPENBLAS_CORETYPE=Haswell in the environment" in reason


def test_openblas_override_probes_every_numpy_framework(monkeypatch):
    # NumPy 2's OpenBLAS picks AVX-512 kernels by itself, Chainer's older one does not.
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.setattr(machine, "cpu_flags", lambda: set(machine.AVX512_FLAGS))
    monkeypatch.setattr(machine, "effective_openblas_core",
                        lambda python: {"kusari-python": "SkylakeX", "chainer-python": "Barcelona"}[python])
    environment, reason = machine.openblas_override(["kusari-python", "chainer-python"])
    assert environment == {"OPENBLAS_CORETYPE": "SkylakeX"}
    assert "Barcelona, SkylakeX" in reason and "OpenBLAS's own choice" in reason
    assert machine.openblas_override(["kusari-python"])[0] == {}


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 OpenBLAS kernel names")
def test_effective_openblas_core_sees_the_environment(monkeypatch):
    for kernels in ("Haswell", "SkylakeX"):  # x86-64 families every DYNAMIC_ARCH OpenBLAS carries
        monkeypatch.setenv("OPENBLAS_CORETYPE", kernels)
        assert machine.effective_openblas_core(sys.executable) == kernels
