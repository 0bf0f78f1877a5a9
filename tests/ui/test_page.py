"""The page is served from the package with its vendored libraries (no CDN), under a strict
Content-Security-Policy; test_browser.py drives it in headless Chromium."""
import os
import re

from kusari.ui.server import STATIC


def test_page_and_its_files_are_served_from_the_package(api):
    page = api.get("/")
    assert page.status_code == 200 and page.headers["content-security-policy"] == "default-src 'self'"
    # every file the page loads ("#/..." links are the page's own routes)
    sources = [s for s in re.findall(r'(?:src|href)="([^"]+)"', page.text) if not s.startswith("#")]
    assert sources and all(not s.startswith(("http:", "https:", "//")) for s in sources)
    for source in sources:
        response = api.get("/" + source)
        assert response.status_code == 200, source
        with open(os.path.join(STATIC, source.removeprefix("static/")), "rb") as f:
            assert response.content == f.read()


def test_vendored_uplot_is_the_pinned_release_with_its_license():
    with open(os.path.join(STATIC, "vendor", "uplot", "uPlot.iife.min.js")) as f:
        assert f.readline().startswith("/*! https://github.com/leeoniya/uPlot (v1.6.32) */")
    with open(os.path.join(STATIC, "vendor", "uplot", "LICENSE")) as f:
        assert f.readline().strip() == "The MIT License (MIT)"


def test_the_page_writes_server_text_as_text_only():
    """Run names, argument values, log entries and command bodies reach the DOM through textContent:
    no innerHTML anywhere."""
    for name in ("app.js", "run.js"):
        with open(os.path.join(STATIC, name)) as f:
            script = f.read()
        assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "textContent" in script, name
