#!/usr/bin/env bash
# The GPU check: one command, under 8 minutes on an H100, for a lent device machine.
#
#     bash tools/gpu_check.sh [--dry-run] [extra pytest arguments]
#
# 1. installs the wheels carried in $KUSARI_WHEELS (default .whl/; e.g. nvidia-cudnn-frontend: what
#    fits the 64 MiB that travels, see docs/gpu.md) into $GPU_CHECK_SITE (/tmp/site);
# 2. names the GPU and the library versions, or fails at once (exit 2) where no GPU can be used;
# 3. installs kusari itself (editable, no dependencies);
# 4. runs the gpu-marked tests in stages, the ones that matter most first, each under a time budget
#    (fused kernels and cuDNN against their references, functions against NumPy, optimizers,
#    static_graph and its CUDA-graph replay, mixed16, training, then every other gpu test), then the GPU
#    benchmarks (python -m bench.gpu: kusari against the machine's PyTorch, if any, see bench/gpu.py);
# 5. writes to $OUT (default /tmp/gpu_check): gpu_check.log (everything), summary.tsv (one row per
#    stage: passed, failed, skipped, errors, seconds, exit status), failures.txt, bench.txt.
#
# --dry-run installs the wheels, skips the rest of the install and the GPU, and prints the stages
# with their commands and budgets (tests/tools/test_gpu_check.py runs it on the CPU).
set -uo pipefail
cd "$(dirname "$0")/.."

dry_run=0
if [[ "${1:-}" == "--dry-run" ]]; then
    dry_run=1
    shift
fi
PYTHON=${PYTHON:-python3}
wheels=${KUSARI_WHEELS:-.whl}
site=${GPU_CHECK_SITE:-/tmp/site}
workers=${GPU_CHECK_WORKERS:-8}
out=${OUT:-/tmp/gpu_check}
mkdir -p "$out"
log="$out/gpu_check.log"
summary="$out/summary.tsv"
: >"$log"
say() { echo "gpu_check: $*" | tee -a "$log"; }

# Stages: name | budget in seconds | pytest arguments (paths and selections); the bench stage's
# are bench.gpu's. The budgets add up to 420 s, leaving the installs and the start of each pytest
# within 8 minutes; bench.gpu starts no variant after 90 s of its 100.
stages=(
    "kernels|50|tests/core/test_cuda_kernels.py tests/core/cudnn"
    "functions|120|tests/core/functions"
    "optimizers|30|tests/core/optimizers tests/core/test_optimizer.py tests/core/optimizer_hooks"
    "static_graph|30|tests/core/test_static_graph.py tests/core/test_static_graph_guards.py tests/core/test_static_graph_step.py tests/core/test_cuda_graph_gpu.py"
    "mixed16|30|tests/core -k mixed16"
    "training|30|tests/core/training"
    "rest|30|tests --ignore=tests/core/functions --ignore=tests/core/cudnn --ignore=tests/core/test_cuda_kernels.py --ignore=tests/core/optimizers --ignore=tests/core/test_optimizer.py --ignore=tests/core/optimizer_hooks --ignore=tests/core/test_static_graph.py --ignore=tests/core/test_static_graph_guards.py --ignore=tests/core/test_static_graph_step.py --ignore=tests/core/test_cuda_graph_gpu.py --ignore=tests/core/training"
    "bench|100|--budget-s 90"
)

# 1. the carried wheels
shopt -s nullglob
found=("$wheels"/*.whl)
shopt -u nullglob
if (( ${#found[@]} )); then
    say "installing ${#found[@]} wheel(s) from $wheels into $site: $(printf '%s ' "${found[@]##*/}")"
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" \
        "${found[@]}" >>"$log" 2>&1 || { say "FAILED: pip could not install the wheels (see $log)"; exit 1; }
    export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
else
    say "no wheels in $wheels: using the installed packages"
fi

if (( dry_run )); then
    say "dry run: would install kusari (editable, no dependencies), name the GPU, then run:"
    for stage in "${stages[@]}"; do
        IFS='|' read -r name budget args <<<"$stage"
        if [[ $name == bench ]]; then
            say "  $name (${budget}s): $PYTHON -u -m bench.gpu $args"
        else
            say "  $name (${budget}s): $PYTHON -m pytest -m gpu -n $workers -q $args $*"
        fi
    done
    exit 0
fi

# 2. the GPU, or a fast and clear failure
if ! "$PYTHON" - >>"$log" 2>&1 <<'EOF'
import sys
try:
    import cupy
    props = cupy.cuda.runtime.getDeviceProperties(0)
except Exception as e:
    sys.exit(f"gpu_check: no usable GPU: {type(e).__name__}: {e}")
try:
    import cudnn
    frontend = cudnn.__version__
except Exception as e:
    frontend = f"absent ({type(e).__name__}: {e})"
import numpy
print("gpu_check: GPU:", props["name"].decode(), "| CUDA runtime", cupy.cuda.runtime.runtimeGetVersion(),
      "| cupy", cupy.__version__, "| cudnn-frontend", frontend, "| numpy", numpy.__version__)
EOF
then
    tail -n 1 "$log"
    say "FAILED: this check needs CuPy and a CUDA GPU (carry cupy-cuda12x in $wheels)"
    exit 2
fi
grep "GPU:" "$log"

# 3. kusari itself
"$PYTHON" -m pip install -q --no-index --no-deps --no-build-isolation -e . >>"$log" 2>&1 \
    || { say "FAILED: pip could not install kusari (see $log)"; exit 1; }

# 4. the stages (in parallel where pytest-xdist is installed)
parallel=()
if "$PYTHON" -c "import xdist" 2>/dev/null; then
    parallel=(-n "$workers")
else
    say "pytest-xdist is not installed: the stages run in one process"
fi
count() { grep -oE "[0-9]+ $1" <<<"$line" | grep -oE '[0-9]+' || echo 0; }   # from pytest's last line
printf 'stage\tpassed\tfailed\tskipped\terrors\tseconds\tstatus\n' >"$summary"
: >"$out/failures.txt"
worst=0
for stage in "${stages[@]}"; do
    IFS='|' read -r name budget args <<<"$stage"
    start=$SECONDS
    stage_log=$(mktemp)
    if [[ $name == bench ]]; then
        say "stage $name (budget ${budget}s): bench.gpu $args"
        # -u: each row reaches bench.txt when measured, so a run cut short keeps what it measured
        # shellcheck disable=SC2086
        timeout "$budget" "$PYTHON" -u -m bench.gpu $args >"$out/bench.txt" 2>&1
        status=$?
        (( status == 124 )) && say "stage $name ran out of its ${budget}s budget"
        cat "$out/bench.txt" >>"$log"
        printf '%s\t\t\t\t\t%s\t%s\n' "$name" $((SECONDS - start)) "$status" >>"$summary"
        rm -f "$stage_log"
        (( status > worst )) && worst=$status
        continue
    fi
    say "stage $name (budget ${budget}s): pytest -m gpu $args $*"
    # shellcheck disable=SC2086  # $args holds several words on purpose
    timeout "$budget" "$PYTHON" -m pytest -m gpu ${parallel[@]+"${parallel[@]}"} -q -rfE -p no:cacheprovider $args "$@" \
        >"$stage_log" 2>&1
    status=$?
    cat "$stage_log" >>"$log"
    line=$(grep -E '^(=+ )?[0-9]+ (passed|failed|skipped|error|deselected)' "$stage_log" | tail -n 1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(count passed)" "$(count failed)" "$(count skipped)" \
        "$(count error)" $((SECONDS - start)) "$status" >>"$summary"
    grep -E '^(FAILED|ERROR) ' "$stage_log" >>"$out/failures.txt"
    rm -f "$stage_log"
    (( status == 124 )) && say "stage $name ran out of its ${budget}s budget"
    (( status == 5 )) && status=0   # pytest: no gpu test in this selection
    (( status > worst )) && worst=$status
done
(column -t -s $'\t' "$summary" 2>/dev/null || cat "$summary") | tee -a "$log"
exit "$worst"
