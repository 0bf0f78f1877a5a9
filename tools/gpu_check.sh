#!/usr/bin/env bash
# The GPU check, in one command on a machine with a CUDA GPU and CuPy (e.g. a lent device machine):
#
#     bash tools/gpu_check.sh [extra pytest arguments]
#
# It installs the wheels found in .whl/ (what that machine lacks, e.g. nvidia-cudnn-frontend; see
# docs/testing.md), installs kusari itself without dependencies, names the GPU and the library
# versions, then runs every test marked `gpu`. The log also lands in $OUT/gpu_check.log when OUT is set.
set -uo pipefail
cd "$(dirname "$0")/.."
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
        .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
python3 -m pip install -q --no-index --no-deps --no-build-isolation -e . || exit 1
log="${OUT:-/tmp}/gpu_check.log"
{
    python3 -c 'import cupy, numpy, kusari
props = cupy.cuda.runtime.getDeviceProperties(0)
print("GPU:", props["name"].decode(), "| CUDA runtime", cupy.cuda.runtime.runtimeGetVersion(),
      "| cupy", cupy.__version__, "| numpy", numpy.__version__, "| kusari", kusari.__version__)' || exit 1
    python3 -m pytest -m gpu -n 8 -q -p no:cacheprovider "$@" tests
} 2>&1 | tee "$log"
