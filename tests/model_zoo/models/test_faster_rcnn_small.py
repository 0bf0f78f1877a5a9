"""FasterRCNNSmall: ChainerCV's predict convention, its size, and pretrained_model's checks."""
import numpy
import pytest

pytest.importorskip("cv2")

from kusari import serializers  # noqa: E402
from kusari.model_zoo.models.faster_rcnn_small import FasterRCNNSmall  # noqa: E402
from kusari.model_zoo.registry import SHIPPED_FILE_LIMIT  # noqa: E402


def test_predict_follows_chainercv(tmp_path):
    numpy.random.seed(0)
    model = FasterRCNNSmall(n_fg_class=2)
    model.score_thresh = 0.0   # an untrained head scores about 1/3 per class
    img = numpy.random.uniform(0, 255, (3, 120, 90)).astype(numpy.float32)
    bboxes, labels, scores = model.predict([img])
    (bbox,), (label,), (score,) = bboxes, labels, scores
    assert bbox.dtype == numpy.float32 and bbox.shape == (len(label), 4) and len(label) > 0
    assert label.dtype == numpy.int32 and set(label) <= {0, 1}
    assert score.dtype == numpy.float32 and score.shape == label.shape
    # (y_min, x_min, y_max, x_max) clipped to the 120 x 90 image
    assert (bbox[:, 0] <= bbox[:, 2]).all() and (bbox[:, 1] <= bbox[:, 3]).all()
    assert bbox[:, 0::2].max() <= 120 and bbox[:, 1::2].max() <= 90 and bbox.min() >= 0
    with pytest.raises(ValueError, match="predict"):
        model.predict([img.transpose(1, 2, 0)])

    path = str(tmp_path / "small.npz")
    serializers.save_npz(path, model)
    loaded = FasterRCNNSmall(pretrained_model=path, n_fg_class=2)
    loaded.score_thresh = 0.0
    for a, b in zip(loaded.predict([img]), (bboxes, labels, scores)):
        numpy.testing.assert_array_equal(a[0], b[0])


def test_a_file_of_the_model_ships_in_the_zoo(tmp_path):
    path = tmp_path / "small.npz"
    serializers.save_npz(str(path), FasterRCNNSmall(n_fg_class=1))
    assert path.stat().st_size < SHIPPED_FILE_LIMIT


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="FasterRCNNSmall: n_fg_class must be a positive int.*None"):
        FasterRCNNSmall()
    path = str(tmp_path / "two.npz")
    serializers.save_npz(path, FasterRCNNSmall(n_fg_class=2))
    with pytest.raises(ValueError, match="FasterRCNNSmall"):
        FasterRCNNSmall(n_fg_class=3, pretrained_model=path)
