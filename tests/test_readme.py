"""The README's Python snippets run as written (they share one namespace, in order)."""
import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "README.md")


def test_readme_python_blocks_run():
    with open(README, encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
    assert blocks, "the README has no Python example"
    namespace = {}
    for block in blocks:
        exec(compile(block, README, "exec"), namespace)


def test_readme_starts_with_the_two_newcomer_commands():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    first_block = re.search(r"```bash\n(.*?)```", text, flags=re.S).group(1).strip().splitlines()
    assert len(first_block) == 2
    assert "pip install" in first_block[0]
    assert first_block[1].endswith('pytest -m "not slow" -n 2')
    with open(os.path.join(os.path.dirname(README), ".ci", "run"), encoding="utf-8") as f:
        assert first_block[1].replace(".venv/bin/", "") in f.read().replace(".venv/bin/", "")
