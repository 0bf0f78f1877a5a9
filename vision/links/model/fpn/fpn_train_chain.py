"""FPNTrainChain: the joint training loss of Feature Pyramid Networks' Faster R-CNN and Mask R-CNN (the
train chain of ChainerCV's examples/fpn/train_multi.py, built from ChainerCV's loss functions)."""
import numpy

import kusari
import kusari.functions as F
from kusari.vision.links.model.fpn.bbox_head import bbox_head_loss_post, bbox_head_loss_pre
from kusari.vision.links.model.fpn.mask_head import mask_head_loss_post, mask_head_loss_pre
from kusari.vision.links.model.fpn.rpn import rpn_loss


class FPNTrainChain(kusari.Chain):
    """The sum of the RPN's, the box head's and (given masks) the mask head's losses of an FPN detector.

    The images of a batch are padded to a common size, a multiple of the model's ``stride``; the
    extractor runs in test mode (its batch normalizations keep their statistics, as in ChainerCV's
    recipe, where batches of two images per GPU are too small to estimate them) unless
    ``fix_batch_statistics`` is False. The RPN's proposals
    and the ground-truth boxes are the box head's RoIs (:func:`bbox_head_loss_pre` samples them);
    its foreground RoIs train the mask head.

    Reported (under the chain's name): ``loss``, ``loss/rpn/loc``, ``loss/rpn/conf``,
    ``loss/bbox_head/loc``, ``loss/bbox_head/conf``, ``loss/mask_head``.

    Parameters
    ----------
    model : kusari.vision.links.model.fpn.FasterRCNN
        Built with boxes in its ``return_values`` (and ``'masks'`` to train a mask head).
    fix_batch_statistics : bool
        Run the extractor in test mode (ChainerCV's recipe, for ImageNet-trained weights). False
        normalizes with each batch's statistics (and updates the running ones): a randomly
        initialized ResNet's fixed statistics (mean 0, variance 1) let its activations grow through
        the depth until the loss diverges.
    """

    def __init__(self, model, fix_batch_statistics: bool = True):
        super().__init__()
        if not hasattr(model, "bbox_head"):
            raise ValueError(f"FPNTrainChain: the model {type(model).__name__} has no bbox_head (its return_values "
                             f"{model._return_values} need no boxes)")
        with self.init_scope():
            self.model = model
        self.fix_batch_statistics = fix_batch_statistics

    def forward(self, imgs, bboxes, labels, masks=None):
        """The total loss of a batch.

        Parameters
        ----------
        imgs : list of numpy.ndarray
            Image ``n`` (3, H_n, W_n) float32, scaled and with the extractor's mean subtracted.
        bboxes : list of numpy.ndarray
            Image ``n``'s boxes (R_n, 4) float32, in the scaled image's pixels.
        labels : list of numpy.ndarray
            Image ``n``'s classes (R_n,) int32, in [0, n_fg_class - 1].
        masks : list of numpy.ndarray or None
            Image ``n``'s instance masks (R_n, H_n, W_n) bool; needs a model with a mask head.

        Returns
        -------
        Variable
            The loss, a scalar.
        """
        fname = "FPNTrainChain"
        if not len(imgs) == len(bboxes) == len(labels) or (masks is not None and len(masks) != len(imgs)):
            raise ValueError(f"{fname}: imgs, bboxes, labels (and masks) must have one entry per image, got "
                             f"{len(imgs)}, {len(bboxes)}, {len(labels)}"
                             + ("" if masks is None else f", {len(masks)}"))
        if masks is not None and not hasattr(self.model, "mask_head"):
            raise ValueError(f"{fname}: masks were given but the model has no mask_head (build it with "
                             f"'masks' in return_values)")
        for i, img in enumerate(imgs):
            if img.ndim != 3 or img.shape[0] != 3:
                raise ValueError(f"{fname}: imgs[{i}] must be a (3, H, W) image, got shape {img.shape}")
        n = len(imgs)
        stride = self.model.stride
        pad_size = -(-numpy.array([img.shape[1:] for img in imgs]).max(axis=0) // stride) * stride
        x = numpy.zeros((n, 3, *pad_size), dtype=numpy.float32)
        for i, img in enumerate(imgs):
            x[i, :, :img.shape[1], :img.shape[2]] = img
        xp = self.xp
        x = xp.asarray(x)
        bboxes = [xp.asarray(bbox, dtype=numpy.float32) for bbox in bboxes]
        labels = [xp.asarray(label) for label in labels]
        sizes = [img.shape[1:] for img in imgs]

        with kusari.using_config("train", kusari.config.train and not self.fix_batch_statistics):
            hs = self.model.extractor(x)
        rpn_locs, rpn_confs = self.model.rpn(hs)
        anchors = self.model.rpn.anchors([h.shape[2:] for h in hs])
        rpn_loc_loss, rpn_conf_loss = rpn_loss(rpn_locs, rpn_confs, anchors, sizes, bboxes)

        rois, roi_indices = self.model.rpn.decode(rpn_locs, rpn_confs, anchors, x.shape)
        rois = xp.vstack([rois] + bboxes)
        roi_indices = xp.hstack([roi_indices] + [xp.full(len(bbox), i, dtype=roi_indices.dtype)
                                                 for i, bbox in enumerate(bboxes)])
        rois, roi_indices = self.model.bbox_head.distribute(rois, roi_indices)
        rois, roi_indices, gt_locs, gt_labels = bbox_head_loss_pre(
            rois, roi_indices, self.model.bbox_head.std, bboxes, labels)
        head_locs, head_confs = self.model.bbox_head(hs, rois, roi_indices)
        head_loc_loss, head_conf_loss = bbox_head_loss_post(head_locs, head_confs, roi_indices, gt_locs,
                                                            gt_labels, n)
        loss = rpn_loc_loss + rpn_conf_loss + head_loc_loss + head_conf_loss
        report = {"loss/rpn/loc": rpn_loc_loss, "loss/rpn/conf": rpn_conf_loss,
                  "loss/bbox_head/loc": head_loc_loss, "loss/bbox_head/conf": head_conf_loss}

        if masks is not None:
            # the masks stay on the host: mask_to_segm crops and resizes them there
            padded = [numpy.zeros((len(mask), *pad_size), dtype=bool) for mask in masks]
            for pad, mask in zip(padded, masks):
                pad[:, :mask.shape[1], :mask.shape[2]] = mask
            mask_rois, mask_roi_indices, gt_segms, gt_mask_labels = mask_head_loss_pre(
                rois, roi_indices, padded, bboxes, gt_labels, self.model.mask_head.segm_size)
            if sum(len(r) for r in mask_rois):
                segms = self.model.mask_head(hs, mask_rois, mask_roi_indices)
                mask_loss = mask_head_loss_post(segms, mask_roi_indices, gt_segms, gt_mask_labels, n)
            else:
                # no foreground RoI: a zero loss through the head still gives every parameter a
                # gradient, which a multi-process optimizer's all-reduce expects
                mask_rois[0] = xp.array([[0, 0, 1, 1]], dtype=numpy.float32)
                mask_roi_indices[0] = xp.zeros(1, dtype=roi_indices[0].dtype)
                mask_loss = 0 * F.sum(self.model.mask_head(hs, mask_rois, mask_roi_indices))
            loss = loss + mask_loss
            report["loss/mask_head"] = mask_loss
        kusari.report({"loss": loss, **report}, self)
        return loss
