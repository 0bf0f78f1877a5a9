"""FCISTrainChain: the five losses of FCIS's joint training (RPN and head: classification, localization, masks)."""
import numpy

import kusari
from kusari import backend
import kusari.functions as F
from kusari.vision.experimental.links.model.fcis.utils.proposal_target_creator import ProposalTargetCreator
from kusari.vision.links.model.faster_rcnn import AnchorTargetCreator
from kusari.vision.links.model.faster_rcnn.faster_rcnn_train_chain import fast_rcnn_loc_loss
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes, check_labels


class FCISTrainChain(kusari.Chain):
    """Computes and reports FCIS's training loss (child ``fcis``).

    ``forward`` runs the extractor and the RPN, samples RoIs with ``proposal_target_creator`` and
    anchors with ``anchor_target_creator`` (both draw from NumPy's global random state, as
    ChainerCV's), runs the head on the sampled RoIs with their true classes, and reports
    (``kusari.report``, observer ``self``):

    * ``rpn_loc_loss``: the smooth L1 loss of the RPN's offsets on positive anchors;
    * ``rpn_cls_loss``: softmax cross entropy of the RPN's scores on the sampled anchors;
    * ``roi_loc_loss``: the smooth L1 loss of the head's class-agnostic offsets on foreground RoIs;
    * ``roi_cls_loss``: softmax cross entropy of the head's class scores;
    * ``roi_mask_loss``: per-pixel softmax cross entropy of the foreground RoIs' masks, summed and
      divided by the number of RoIs, times ``10 / mask_size**2``;
    * ``loss``: their sum, which ``forward`` returns.

    Parameters
    ----------
    fcis : FCIS
        The model to train.
    rpn_sigma, roi_sigma : float
        ``sigma`` of the smooth L1 losses of the RPN (3) and of the head (1).
    anchor_target_creator : kusari.vision.links.model.faster_rcnn.AnchorTargetCreator
    proposal_target_creator : ProposalTargetCreator
    """

    def __init__(self, fcis, rpn_sigma=3.0, roi_sigma=1.0, anchor_target_creator=AnchorTargetCreator(),
                 proposal_target_creator=ProposalTargetCreator()):
        super().__init__()
        with self.init_scope():
            self.fcis = fcis
        self.rpn_sigma = rpn_sigma
        self.roi_sigma = roi_sigma
        self.mask_size = self.fcis.head.roi_size
        self.loc_normalize_mean = fcis.loc_normalize_mean
        self.loc_normalize_std = fcis.loc_normalize_std
        self.anchor_target_creator = anchor_target_creator
        self.proposal_target_creator = proposal_target_creator

    def forward(self, imgs, masks, labels, bboxes, scale):
        """The total loss of a batch of one image.

        Parameters
        ----------
        imgs : kusari.Variable or array, shape (1, 3, H, W)
            The preprocessed image.
        masks : kusari.Variable or array, shape (1, R, H, W)
            Its instances' masks (bool), in ``imgs``' pixels.
        labels : kusari.Variable or integer array, shape (1, R)
            Their classes in ``[0, L)``, L = ``fcis.n_class - 1``.
        bboxes : kusari.Variable or array, shape (1, R, 4)
            Their boxes, in ``imgs``' coordinates.
        scale : float, or kusari.Variable or array of one element
            How much preprocessing scaled the image.

        Returns
        -------
        kusari.Variable
            The scalar loss, of the model's dtype.
        """
        fname = "FCISTrainChain"
        masks, labels, bboxes, scale = (v.array if isinstance(v, kusari.Variable) else v
                                        for v in (masks, labels, bboxes, scale))
        if imgs.ndim != 4 or imgs.shape[0] != 1:
            raise ValueError(f"{fname}: only batches of one image are supported: imgs must have shape "
                             f"(1, C, H, W), got {tuple(imgs.shape)}")
        img_size = tuple(imgs.shape[2:])
        if masks.ndim != 4 or masks.shape[0] != 1 or tuple(masks.shape[2:]) != img_size:
            raise ValueError(f"{fname}: masks must have shape (1, R, H, W) with (H, W) = {img_size}, the image's, "
                             f"got {tuple(masks.shape)}")
        if bboxes.ndim != 3 or bboxes.shape[0] != 1 or bboxes.shape[1] != masks.shape[1]:
            raise ValueError(f"{fname}: bboxes must have shape (1, R, 4) with R = {masks.shape[1]} (one per mask), "
                             f"got {tuple(bboxes.shape)}")
        bbox = bboxes[0]
        check_boxes(fname, "bboxes[0]", bbox, allow_empty=False)
        if labels.ndim != 2 or labels.shape[0] != 1:
            raise ValueError(f"{fname}: labels must have shape (1, R), got {tuple(labels.shape)}")
        label = labels[0]
        check_labels(fname, label, bbox.shape[0], self.fcis.n_class - 1)
        scale = numpy.asarray(backend.to_cpu(scale))
        if scale.size != 1:
            raise ValueError(f"{fname}: scale must be one number, got shape {scale.shape}")
        scale = scale.item()

        rpn_features, roi_features = self.fcis.extractor(imgs)
        rpn_locs, rpn_scores, rois, _, anchor = self.fcis.rpn(rpn_features, img_size, scale)
        sample_roi, gt_roi_mask, gt_roi_label, gt_roi_loc = self.proposal_target_creator(
            rois, masks[0], label, bbox, self.loc_normalize_mean, self.loc_normalize_std, self.mask_size)
        sample_roi_index = self.xp.zeros((len(sample_roi),), numpy.int32)
        roi_ag_seg_score, roi_ag_loc, roi_cls_score, _, _ = self.fcis.head(
            roi_features, sample_roi, sample_roi_index, img_size, gt_roi_label)

        gt_rpn_loc, gt_rpn_label = self.anchor_target_creator(bbox, anchor, img_size)
        rpn_loc_loss = fast_rcnn_loc_loss(rpn_locs[0], gt_rpn_loc, gt_rpn_label, self.rpn_sigma)
        rpn_cls_loss = F.softmax_cross_entropy(rpn_scores[0], gt_rpn_label)

        n_roi = roi_ag_loc.shape[0]
        if n_roi != len(sample_roi):
            raise ValueError(f"{fname}: the head returned {n_roi} RoIs for {len(sample_roi)} sampled ones; train "
                             f"a head that returns one per RoI (FCISResNet101 with iter2=False, as ChainerCV's "
                             f"examples do)")
        gt_roi_fg_label = (gt_roi_label > 0).astype(numpy.int32)
        roi_loc = roi_ag_loc[self.xp.arange(n_roi), gt_roi_fg_label]
        roi_loc_loss = fast_rcnn_loc_loss(roi_loc, gt_roi_loc, gt_roi_label, self.roi_sigma)
        roi_cls_loss = F.softmax_cross_entropy(roi_cls_score, gt_roi_label)
        # summed over the valid pixels, divided by the number of RoIs (valid or not)
        roi_mask_loss = F.softmax_cross_entropy(roi_ag_seg_score, gt_roi_mask, normalize=False) \
            * 10.0 / self.mask_size / self.mask_size

        loss = rpn_loc_loss + rpn_cls_loss + roi_loc_loss + roi_cls_loss + roi_mask_loss
        kusari.report({"rpn_loc_loss": rpn_loc_loss, "rpn_cls_loss": rpn_cls_loss, "roi_loc_loss": roi_loc_loss,
                       "roi_cls_loss": roi_cls_loss, "roi_mask_loss": roi_mask_loss, "loss": loss}, self)
        return loss
