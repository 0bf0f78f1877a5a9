"""One run in its own process: ``python -m bench.chem.worker JOB --framework F --data CSV --out JSON [...]``.

JOB ``esol`` trains with :mod:`bench.chem.esol` (``--splits``, ``--seed``, ``--epochs``), JOB ``featurize``
featurizes a CSV file with :mod:`bench.chem.featurize`. The process pins its framework to one thread (the
caller also sets OMP/OpenBLAS/MKL_NUM_THREADS=1) and writes the job's result with ``"info"`` (versions and
threads) as JSON to ``--out``. The caller measures the process's CPU and wall time from outside.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile

from bench.chem import esol, featurize

FRAMEWORKS = ("kusari", "chemprop", "chainer-chemistry")
#: frameworks a run names explicitly (``--frameworks kusari-dmpnn,chemprop``), not run by default: kusari's
#: D-MPNN row (issue 31, item 4) is prepared but has not had its full run
PREPARED = ("kusari-dmpnn",)
JOBS = {"esol": esol, "featurize": featurize}


def versions(framework: str) -> dict[str, str]:
    """The framework's version, those of the libraries it runs on, and its threads; sets one thread."""
    import numpy
    import rdkit
    info = {"python": platform.python_version(), "numpy": numpy.__version__, "rdkit": rdkit.__version__}
    if framework.startswith("kusari"):
        import kusari
        info["kusari"] = kusari.__version__
    elif framework == "chainer-chemistry":
        import chainer
        from importlib import metadata
        info.update(chainer=chainer.__version__, chainer_chemistry=metadata.version("chainer-chemistry"))
    else:
        import torch
        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
        from importlib import metadata
        info.update(torch=torch.__version__, chemprop=metadata.version("chemprop"),
                    lightning=metadata.version("lightning"), threads=f"torch.get_num_threads()={torch.get_num_threads()}")
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chem.worker")
    parser.add_argument("job", choices=JOBS)
    parser.add_argument("--framework", required=True, choices=FRAMEWORKS + PREPARED)
    parser.add_argument("--data", required=True, help="the CSV file")
    parser.add_argument("--splits", help="esol: the split, in chemprop's --splits-file format")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.job == "esol" and args.splits is None:
        parser.error("esol needs --splits")
    info = versions(args.framework)
    name = args.framework.replace("-", "_")
    if args.job == "esol":
        with tempfile.TemporaryDirectory() as work_dir:
            result = getattr(esol, f"train_{name}")(args.data, args.splits, args.seed, args.epochs, work_dir)
    else:
        result = getattr(featurize, f"featurize_{name}")(args.data)
    result["info"] = info
    with open(args.out, "w") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
