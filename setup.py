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
}


def _packages():
    packages, package_dir = [], {}
    for name, folder in ROOTS.items():
        package_dir[name] = folder
        packages.append(name)
        for sub in find_packages(folder):
            packages.append(f"{name}.{sub}")
            package_dir[f"{name}.{sub}"] = os.path.join(folder, *sub.split("."))
    return packages, package_dir


packages, package_dir = _packages()
setup(packages=packages, package_dir=package_dir, include_package_data=True)
