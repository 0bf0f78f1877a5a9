"""Resume at another world size: a data-parallel run snapshotted on 2 ranks, continued on 1, then on 2
again, ends where an uninterrupted 2-rank run ends (parameters within 1e-6, Adam's state included) and
reads the same global batches: no example skipped or repeated in an epoch. A snapshot of another
model is refused on every rank."""
import glob
import os

import numpy as np

N_EXAMPLES, GLOBAL_BATCH = 40, 8


def _global_batches(out):
    """{iteration: ids of the global batch, rank 0's share first} from every rank's log."""
    batches = {}
    for path in sorted(glob.glob(os.path.join(out, "ids.size*.rank*.log")),
                       key=lambda p: int(p.rsplit("rank", 1)[1].split(".")[0])):
        for line in open(path):
            iteration, *ids = map(int, line.split())
            batches.setdefault(iteration, []).extend(ids)
    return batches


def test_resume_on_2_then_1_then_2_ranks_equals_an_uninterrupted_run(mpi, tmp_path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    whole.mkdir()
    parts.mkdir()
    mpi.run_ok("w_resume.py", whole, 12, "train", n=2)
    mpi.run_ok("w_resume.py", parts, 4, "train", n=2)
    mpi.run_ok("w_resume.py", parts, 8, "train", n=1)
    mpi.run_ok("w_resume.py", parts, 12, "train", n=2)

    expected, resumed = _global_batches(whole), _global_batches(parts)
    assert sorted(expected) == sorted(resumed) == list(range(1, 13))
    for iteration in expected:
        assert resumed[iteration] == expected[iteration], iteration
    steps_per_epoch = N_EXAMPLES // GLOBAL_BATCH
    for epoch in range(2):
        ids = sum((resumed[epoch * steps_per_epoch + k + 1] for k in range(steps_per_epoch)), [])
        assert sorted(ids) == list(range(N_EXAMPLES)), f"epoch {epoch} skipped or repeated examples"
    assert os.path.exists(parts / "ids.size1.rank0.log")   # the middle third really ran on one rank

    a, b = np.load(whole / "final.npz"), np.load(parts / "final.npz")
    assert sorted(a.files) == sorted(b.files)
    for name in a.files:
        np.testing.assert_allclose(b[name], a[name], rtol=1e-6, atol=1e-6, err_msg=name)

    result = mpi.run_ok("w_resume.py", parts, 16, "incompatible", n=2)
    for rank in range(2):
        assert f"rank {rank} refused:" in result.stdout, result.stdout
