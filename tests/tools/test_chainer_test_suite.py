"""tools/chainer_test_suite.py: how a test is identified on both sides, and the report's arithmetic."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("chainer_test_suite", ROOT / "tools" / "chainer_test_suite.py")
suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)


def test_a_test_is_identified_by_its_parameter_index_not_the_reprs():
    numpy1 = "m.TestX_param_3_{pad=0.5, dtype=bool_}_use_cuda_false_param_1_{w={1: 2}}::test_forward"
    numpy2 = "m.TestX_param_3_{pad=np.float64(0.5), dtype=bool}_use_cuda_false_param_1_{w={1: 2}}::test_forward"
    assert suite._test_id(numpy1) == suite._test_id(numpy2) == "m.TestX_param_3_use_cuda_false_param_1::test_forward"
    assert suite._test_id("m.TestY::test_a") == "m.TestY::test_a"


def _xml(path, cases):
    body = "".join(f'<testcase classname="{c}" name="{n}">{extra}</testcase>' for c, n, extra in cases)
    path.write_text(f'<testsuites><testsuite>{body}</testsuite></testsuites>')
    return path


def test_report_counts_only_the_tests_that_pass_on_chainer(tmp_path):
    chainer = _xml(tmp_path / "c.xml", [("m.TestA_param_0_{x=1}", "test_f", ""),
                                        ("m.TestA_param_1_{x=2}", "test_f", ""),
                                        ("m.TestB", "test_g", '<skipped message="no gpu"/>')])
    kusari = _xml(tmp_path / "k.xml", [("m.TestA_param_0_{x=1}", "test_f", ""),
                                       ("m.TestA_param_1_{x=2}", "test_f",
                                        '<failure message="ValueError: bad shape (2, 3)"/>'),
                                       ("m.TestB", "test_g", "")])
    text = suite.report(tmp_path, suite.outcomes(kusari), suite.outcomes(chainer))
    assert "2 tests pass on Chainer; 1 of them pass on kusari (50.0 %)" in text
    assert "[failed] ValueError: bad shape (SHAPE)" in text
    assert (tmp_path / "report.json").exists()


def test_failures_are_classified_and_set_aside(tmp_path):
    names = ("test_a", "test_b", "test_c", "test_d")
    chainer = _xml(tmp_path / "c.xml", [("m.TestA", n, "") for n in names])
    kusari = _xml(tmp_path / "k.xml", [
        ("m.TestA", "test_a", ""),
        ("m.TestA", "test_b", '<failure message="AssertionError: DeprecationWarning not triggered"/>'),
        ("m.TestA", "test_c", "<failure message=\"AttributeError: module 'm' has no attribute '_flip'\"/>"),
        ("m.TestA", "test_d", '<failure message="ValueError: shift: bad (2, 3)"/>')])
    text = suite.report(tmp_path, suite.outcomes(kusari), suite.outcomes(chainer))
    assert "4 tests pass on Chainer; 1 of them pass on kusari (25.0 %)" in text
    assert "Setting aside 1 deliberate differences and 1 private internals: 1 of 2 (50.0 %); 1 gaps." in text
    assert "[failed] ValueError: shift: bad (SHAPE)" in text
    assert suite.classify("m.T.test_x", "ValueError: nothing known") == ("gap", None)
