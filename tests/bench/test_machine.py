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
