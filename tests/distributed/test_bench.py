"""bench.distributed: ResNet-50's parameter shapes and the results table's ratios and verdicts."""
from bench.distributed.__main__ import markdown
from bench.distributed.shapes import resnet50_shapes


def test_resnet50_shapes_count_161_tensors_and_25_557_032_floats():
    shapes = resnet50_shapes()
    assert len(shapes) == 161
    total = 0
    for shape in shapes:
        size = 1
        for d in shape:
            size *= d
        total += size
    assert total == 25_557_032
    assert shapes[0] == (64, 3, 7, 7) and shapes[-2:] == [(1000, 2048), (1000,)]


def test_markdown_gives_each_case_its_ratio_to_raw_and_the_goal_verdict():
    seconds = {"raw": 0.1, "flat_resnet50": 0.2, "flat_one_tensor": 0.1 / 0.95, "naive_resnet50": 0.4}
    allreduce = {"floats": 25_557_032, "ranks": 2, "seconds": seconds,
                 "all_seconds": {k: [v, v] for k, v in seconds.items()}}
    epochs = [{"steps_per_rank": 600, "seconds": 30.0}, {"steps_per_rank": 300, "seconds": 20.0}]
    text = markdown(allreduce, epochs, ("1.0 / 1.0 / 1.0", "2.0 / 2.0 / 2.0"), "python -m bench.distributed")
    rows = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| `")}
    assert rows["| `flat` multi_node_mean_grad, 161 tensors (8 MiB or more in place, the rest in 16 MiB buckets; mean)"].endswith("| 0.50 | no |")
    assert rows["| `flat` multi_node_mean_grad, one 25.6M tensor (in place in 16 MiB slices; mean)"].endswith("| 0.95 | yes |")
    assert "| 2 | 300 | 20.0 | 1.50 |" in text
    assert "The machine is shared" in text
