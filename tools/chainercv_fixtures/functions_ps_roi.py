"""ChainerCV 0.13.1's position-sensitive RoI functions (their CPU code) on small seeded inputs.

Writes ``OUTDIR/functions_ps_roi.npz``: for each case ``<case>/`` of the four functions, the inputs
``x`` (float32, (2, out_c * G * G, 7, 8)), ``rois`` (float32 (R, 4): inside, reaching past the border,
tiny, entirely outside the map, one per image), ``roi_indices`` (int32), an output gradient ``gy``, the
parameters (``outsize``, ``spatial_scale``, ``group_size``, ``sampling_ratio`` with -1 for None) and
ChainerCV's forward ``y`` and backward ``gx``.
"""
import sys

import numpy as np

import chainer
from chainercv import functions

from _common import save_npz

ROIS = np.array([[1.3, 2.1, 9.7, 12.2], [-4.1, -3.3, 13.2, 11.1], [5.5, 4.7, 5.6, 5.3],
                 [15.0, 18.0, 20.0, 25.0], [0.0, 0.0, 12.0, 14.0], [2.6, 7.3, 11.1, 9.9]], np.float32)
ROI_INDICES = np.array([0, 1, 1, 0, 1, 0], np.int32)

# name, function, outsize, spatial_scale, group_size, sampling_ratio (None: the function has none)
CASES = [
    ("average_pooling", functions.ps_roi_average_pooling_2d, (2, 3, 3), 0.6, 3, None),
    ("average_pooling_outsize_int", functions.ps_roi_average_pooling_2d, 4, 0.5, 2, None),
    ("average_pooling_rect", functions.ps_roi_average_pooling_2d, (3, 2), 0.7, 2, None),
    ("max_pooling", functions.ps_roi_max_pooling_2d, (2, 3, 3), 0.6, 3, None),
    ("max_pooling_rect", functions.ps_roi_max_pooling_2d, (3, 4), 0.55, 2, None),
    ("average_align", functions.ps_roi_average_align_2d, (2, 3, 3), 0.6, 3, "none"),
    ("average_align_ratio2", functions.ps_roi_average_align_2d, (3, 4), 0.55, 2, 2),
    ("average_align_ratio13", functions.ps_roi_average_align_2d, 4, 0.5, 2, (1, 3)),
    ("max_align", functions.ps_roi_max_align_2d, (2, 3, 3), 0.6, 3, "none"),
    ("max_align_ratio2", functions.ps_roi_max_align_2d, (3, 4), 0.55, 2, 2),
    ("max_align_ratio13", functions.ps_roi_max_align_2d, 4, 0.5, 2, (1, 3)),
]


def main(outdir):
    rng = np.random.RandomState(0)
    entries = {}
    for name, function, outsize, scale, group, ratio in CASES:
        out_c = outsize[0] if isinstance(outsize, tuple) and len(outsize) == 3 else 2
        x = rng.uniform(-1, 1, (2, out_c * group * group, 7, 8)).astype(np.float32)
        kwargs = {} if ratio is None else {"sampling_ratio": None if ratio == "none" else ratio}
        xv = chainer.Variable(x)
        y = function(xv, ROIS, ROI_INDICES, outsize, scale, group, **kwargs)
        gy = rng.uniform(-1, 1, y.shape).astype(np.float32)
        y.grad = gy
        y.backward()
        if ratio is None or ratio == "none":
            ratio_entry = np.array([-1, -1])
        else:
            ratio_entry = np.broadcast_to(np.array(ratio), (2,))
        outsize_entry = np.array(outsize if isinstance(outsize, tuple) else (outsize,))
        entries.update({f"{name}/x": x, f"{name}/rois": ROIS, f"{name}/roi_indices": ROI_INDICES,
                        f"{name}/gy": gy, f"{name}/outsize": outsize_entry, f"{name}/spatial_scale": np.float64(scale),
                        f"{name}/group_size": np.int64(group), f"{name}/sampling_ratio": ratio_entry,
                        f"{name}/y": y.array, f"{name}/gx": xv.grad})
    save_npz(f"{outdir}/functions_ps_roi.npz", entries)


if __name__ == "__main__":
    main(sys.argv[1])
