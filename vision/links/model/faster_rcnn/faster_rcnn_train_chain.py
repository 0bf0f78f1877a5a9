"""FasterRCNNTrainChain: the four losses of Faster R-CNN's joint training (RPN and head, classification and
localization), and the smooth L1 localization loss they use."""
import numpy

import kusari
from kusari import backend
import kusari.functions as F
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes, check_labels
from kusari.vision.links.model.faster_rcnn.utils.anchor_target_creator import AnchorTargetCreator
from kusari.vision.links.model.faster_rcnn.utils.proposal_target_creator import ProposalTargetCreator


class FasterRCNNTrainChain(kusari.Chain):
    """Computes and reports Faster R-CNN's training loss (child ``faster_rcnn``).

    ``forward`` runs the extractor and the RPN, samples RoIs with ``proposal_target_creator`` and
    anchors with ``anchor_target_creator`` (both draw from NumPy's global random state), runs the
    head on the sampled RoIs, and reports (``kusari.report``, observer ``self``):

    * ``rpn_loc_loss``: :func:`fast_rcnn_loc_loss` of the RPN's offsets on positive anchors;
    * ``rpn_cls_loss``: softmax cross entropy of the RPN's scores on the sampled anchors;
    * ``roi_loc_loss``: :func:`fast_rcnn_loc_loss` of the head's offsets for the true class;
    * ``roi_cls_loss``: softmax cross entropy of the head's scores;
    * ``loss``: their sum, which ``forward`` returns.

    Parameters
    ----------
    faster_rcnn : FasterRCNN
        The model to train.
    rpn_sigma, roi_sigma : float
        ``sigma`` of the smooth L1 losses of the RPN (3, the paper's) and of the head (1).
    anchor_target_creator : AnchorTargetCreator
    proposal_target_creator : ProposalTargetCreator
    """

    def __init__(self, faster_rcnn, rpn_sigma=3., roi_sigma=1., anchor_target_creator=AnchorTargetCreator(),
                 proposal_target_creator=ProposalTargetCreator()):
        super().__init__()
        with self.init_scope():
            self.faster_rcnn = faster_rcnn
        self.rpn_sigma = rpn_sigma
        self.roi_sigma = roi_sigma
        self.anchor_target_creator = anchor_target_creator
        self.proposal_target_creator = proposal_target_creator
        self.loc_normalize_mean = faster_rcnn.loc_normalize_mean
        self.loc_normalize_std = faster_rcnn.loc_normalize_std

    def forward(self, imgs, bboxes, labels, scales):
        """The total loss of a batch of one image.

        Parameters
        ----------
        imgs : kusari.Variable or array, shape (1, 3, H, W)
            The preprocessed image.
        bboxes : kusari.Variable or array, shape (1, R, 4)
            Its ground-truth boxes, in ``imgs``' coordinates.
        labels : kusari.Variable or integer array, shape (1, R)
            Their classes in ``[0, L)``, L = ``faster_rcnn.n_class - 1``.
        scales : kusari.Variable or array, shape (1,)
            How much preprocessing scaled the image.

        Returns
        -------
        kusari.Variable
            The scalar loss, of the model's dtype.
        """
        fname = "FasterRCNNTrainChain"
        bboxes, labels, scales = (v.array if isinstance(v, kusari.Variable) else v for v in (bboxes, labels, scales))
        if bboxes.ndim != 3 or bboxes.shape[0] != 1:
            raise ValueError(f"{fname}: only batches of one image are supported: bboxes must have shape "
                             f"(1, R, 4), got {tuple(bboxes.shape)}")
        if imgs.ndim != 4 or imgs.shape[0] != 1:
            raise ValueError(f"{fname}: imgs must have shape (1, C, H, W), got {tuple(imgs.shape)}")
        bbox = bboxes[0]
        check_boxes(fname, "bboxes[0]", bbox, allow_empty=False)
        if labels.ndim != 2 or labels.shape[0] != 1:
            raise ValueError(f"{fname}: labels must have shape (1, R), got {tuple(labels.shape)}")
        label = labels[0]
        check_labels(fname, label, bbox.shape[0], self.faster_rcnn.n_class - 1)
        scales = numpy.asarray(backend.to_cpu(scales)).reshape(-1).tolist()
        img_size = imgs.shape[2:]

        features = self.faster_rcnn.extractor(imgs)
        rpn_locs, rpn_scores, rois, _, anchor = self.faster_rcnn.rpn(features, img_size, scales)
        sample_roi, gt_roi_loc, gt_roi_label = self.proposal_target_creator(
            rois, bbox, label, self.loc_normalize_mean, self.loc_normalize_std)
        sample_roi_index = self.xp.zeros((len(sample_roi),), numpy.int32)
        roi_cls_loc, roi_score = self.faster_rcnn.head(features, sample_roi, sample_roi_index)

        gt_rpn_loc, gt_rpn_label = self.anchor_target_creator(bbox, anchor, img_size)
        rpn_loc_loss = fast_rcnn_loc_loss(rpn_locs[0], gt_rpn_loc, gt_rpn_label, self.rpn_sigma)
        rpn_cls_loss = F.softmax_cross_entropy(rpn_scores[0], gt_rpn_label)

        n_sample = roi_cls_loc.shape[0]
        roi_loc = roi_cls_loc.reshape((n_sample, -1, 4))[self.xp.arange(n_sample), gt_roi_label]
        roi_loc_loss = fast_rcnn_loc_loss(roi_loc, gt_roi_loc, gt_roi_label, self.roi_sigma)
        roi_cls_loss = F.softmax_cross_entropy(roi_score, gt_roi_label)

        loss = rpn_loc_loss + rpn_cls_loss + roi_loc_loss + roi_cls_loss
        kusari.report({"rpn_loc_loss": rpn_loc_loss, "rpn_cls_loss": rpn_cls_loss, "roi_loc_loss": roi_loc_loss,
                       "roi_cls_loss": roi_cls_loss, "loss": loss}, self)
        return loss


def smooth_l1_loss(x, t, in_weight, sigma: float):
    """``sum(f(in_weight * (x - t)))`` with Faster R-CNN's smooth L1 ``f(d) = sigma^2 d^2 / 2`` where
    ``|d| < 1 / sigma^2`` and ``|d| - 0.5 / sigma^2`` elsewhere; a scalar Variable of ``x``'s dtype."""
    sigma2 = sigma ** 2
    diff = in_weight * (x - t)
    abs_diff = F.absolute(diff)
    flag = (abs_diff.array < (1. / sigma2)).astype(diff.dtype)
    y = flag * (sigma2 / 2.) * F.square(diff) + (1 - flag) * (abs_diff - 0.5 / sigma2)
    return F.sum(y)


def fast_rcnn_loc_loss(pred_loc, gt_loc, gt_label, sigma: float):
    """Fast R-CNN's localization loss: :func:`smooth_l1_loss` over the rows of positive label, divided by the
    number of rows whose label is not ignored (``>= 0``).

    Parameters
    ----------
    pred_loc : kusari.Variable, shape (S, 4)
        Predicted offsets.
    gt_loc : array, shape (S, 4)
        Their targets.
    gt_label : integer array, shape (S,)
        > 0: a positive row (counted in the sum); 0: a negative row (counted in the divisor only);
        -1: ignored.
    sigma : float
        The smooth L1 loss's ``sigma``.

    Returns
    -------
    kusari.Variable
        A scalar of ``pred_loc``'s dtype (nan when no label is >= 0, as in ChainerCV).
    """
    xp = backend.get_array_module(gt_loc)
    in_weight = xp.zeros(gt_loc.shape, pred_loc.dtype)
    in_weight[gt_label > 0] = 1
    loc_loss = smooth_l1_loss(pred_loc, gt_loc.astype(pred_loc.dtype, copy=False), in_weight, sigma)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return loc_loss / pred_loc.dtype.type(xp.sum(gt_label >= 0))
