"""kusari.vision.datasets.OnlineProductsDataset against ChainerCV 0.13.1 on a synthetic layout, and downloaded
offline."""
import os

import dataset_parity
import pytest

from kusari.vision.datasets import OnlineProductsDataset


@pytest.mark.parametrize("name", dataset_parity.case_names("OnlineProductsDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("online_products.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)


def test_auto_downloads_and_extracts(layouts, mirror, dataset_root):
    source = os.path.join(layouts, "online_products", "Stanford_Online_Products")
    dataset_parity.archive(mirror.folder / "Stanford_Online_Products.zip", {"Stanford_Online_Products": source})
    dataset_parity.same_examples(OnlineProductsDataset(split="test"), OnlineProductsDataset(source, "test"), "auto")


def test_a_class_id_that_is_not_an_integer_is_named(tmp_path):
    (tmp_path / "Ebay_train.txt").write_text("image_id class_id super_class_id path\n"
                                             "1 1 1 bicycle_final/a.JPG\n2 one 1 bicycle_final/b.JPG\n")
    with pytest.raises(ValueError, match=rf"^OnlineProductsDataset: {tmp_path / 'Ebay_train.txt'}, line 3, "
                                         r"field 2 must be an integer, got 'one'$"):
        OnlineProductsDataset(str(tmp_path), "train")
