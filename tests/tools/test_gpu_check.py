import os
import subprocess

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "gpu_check.sh")


def test_gpu_check_script_parses_and_runs_the_gpu_tests():
    subprocess.run(["bash", "-n", SCRIPT], check=True)
    with open(SCRIPT) as f:
        text = f.read()
    assert "pytest -m gpu" in text and ".whl/*.whl" in text
