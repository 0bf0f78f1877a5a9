"""Vendor kusari.ui's front-end libraries from npm into ``ui/static/vendor/`` (run at build time, not at run time).

``python tools/vendor_ui_frontend.py`` fetches each pinned package with ``npm pack`` (npm checks the
registry's integrity), checks it against the sha512 pinned here, and copies the files the page loads plus
the package's LICENSE. The copies are committed, so the dashboard works offline and needs no npm to run.
"""
import base64
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENDOR = os.path.join(ROOT, "ui", "static", "vendor")
# name, version, sha512 integrity of the npm tarball, files taken from it (paths inside "package/")
PACKAGES = [
    ("uplot", "1.6.32",
     "sha512-KIMVnG68zvu5XXUbC4LQEPnhwOxBuLyW1AHtpm6IKTXImkbLgkMy+jabjLgSLMasNuGGzQm/ep3tOkyTxpiQIw==",
     ["dist/uPlot.iife.min.js", "dist/uPlot.min.css", "LICENSE"]),
]


def vendor(name: str, version: str, integrity: str, files: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tarball = subprocess.run(["npm", "pack", f"{name}@{version}", "--silent"], cwd=tmp, check=True,
                                 capture_output=True, text=True).stdout.strip().splitlines()[-1]
        path = os.path.join(tmp, tarball)
        with open(path, "rb") as f:
            digest = "sha512-" + base64.b64encode(hashlib.sha512(f.read()).digest()).decode()
        if digest != integrity:
            raise SystemExit(f"vendor_ui_frontend: {name}@{version} has {digest}, expected {integrity}")
        target = os.path.join(VENDOR, name)
        os.makedirs(target, exist_ok=True)
        with tarfile.open(path) as archive:
            for member in files:
                source = archive.extractfile(f"package/{member}")
                with open(os.path.join(target, os.path.basename(member)), "wb") as out:
                    shutil.copyfileobj(source, out)
    print(f"vendor_ui_frontend: {name}@{version} -> {os.path.relpath(target, ROOT)}")


if __name__ == "__main__":
    for package in PACKAGES:
        vendor(*package)
