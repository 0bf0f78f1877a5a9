"""Maps the monorepo folders onto the one ``kusari`` namespace: ``core/`` is ``kusari``, each domain folder a
subpackage (the rest of the metadata is in pyproject.toml)."""
import os

from setuptools import find_packages, setup

ROOTS = {
    "kusari": "core",
    "kusari.vision": "vision",
    "kusari.rl": "rl",
    "kusari.chem": "chem",
    "kusari.model_zoo": "model_zoo",
    "kusari.ui": "ui",
}
# folders of data files only: setuptools ships them as packages of their own (package-data in pyproject.toml)
DATA_PACKAGES = {"kusari.model_zoo.weights": os.path.join("model_zoo", "weights"),
                 "kusari.ui.static": os.path.join("ui", "static"),
                 "kusari.ui.static.vendor.uplot": os.path.join("ui", "static", "vendor", "uplot")}


def _packages():
    packages, package_dir = [], {}
    for name, folder in ROOTS.items():
        package_dir[name] = folder
        packages.append(name)
        for sub in find_packages(folder):
            packages.append(f"{name}.{sub}")
            package_dir[f"{name}.{sub}"] = os.path.join(folder, *sub.split("."))
    packages.extend(DATA_PACKAGES)
    package_dir.update(DATA_PACKAGES)
    return packages, package_dir


packages, package_dir = _packages()
setup(packages=packages, package_dir=package_dir, include_package_data=True)
