"""Caltech-UCSD Birds-200-2011 (CUB): the archives, their download into ``<dataset root>/cub``, the base of its
datasets (boxes and probability maps) and the 200 class names."""
import os

import numpy

from kusari.dataset import Checksum
from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import fetch_archive, read_table
from kusari.vision.utils import read_label

url = "http://www.vision.caltech.edu/visipedia-data/CUB-200-2011/CUB_200_2011.tgz"
prob_map_url = "http://www.vision.caltech.edu/visipedia-data/CUB-200-2011/segmentations.tgz"

# MD5 of CUB_200_2011.tgz as public download scripts check it (ChainerCV published none);
# none is known for segmentations.tgz, which is read through (gzip CRC) instead.
_CHECKSUMS = {"CUB_200_2011.tgz": Checksum("97eceeb196236b17998738112f37df78", "md5")}


def get_cub() -> str:
    """``<dataset root>/cub/CUB_200_2011``, downloaded and extracted the first time."""
    return os.path.join(fetch_archive("cub", url, {"CUB_200_2011": "CUB_200_2011"}, "get_cub",
                                      verify=_CHECKSUMS["CUB_200_2011.tgz"]), "CUB_200_2011")


def get_cub_prob_map() -> str:
    """``<dataset root>/cub/segmentations`` (the birds' probability maps), downloaded the first time."""
    return os.path.join(fetch_archive("cub", prob_map_url, {"segmentations": "segmentations"}, "get_cub_prob_map"),
                        "segmentations")


class CUBDatasetBase(GetterDataset):
    """What the CUB datasets share: the image list, the getters of ``bbox`` and ``prob_map``.

    Parameters
    ----------
    data_dir : str
        The ``CUB_200_2011`` folder, or ``'auto'`` to download it into ``<dataset root>/cub``.
    prob_map_dir : str
        The ``segmentations`` folder, or ``'auto'`` to download it into ``<dataset root>/cub`` (only
        when the probability maps are returned).
    return_prob_map : bool
        Whether the dataset returns them (the subclasses' argument).
    """

    def __init__(self, data_dir="auto", prob_map_dir="auto", return_prob_map=False):
        super().__init__()
        owner = type(self).__name__
        if data_dir == "auto":
            data_dir = get_cub()
        if prob_map_dir == "auto" and return_prob_map:
            prob_map_dir = get_cub_prob_map()
        self.data_dir = data_dir
        self.prob_map_dir = prob_map_dir
        self.paths = [row[1] for row in read_table(os.path.join(data_dir, "images.txt"), owner,
                                                   "the image list", (int, str))]
        boxes = read_table(os.path.join(data_dir, "bounding_boxes.txt"), owner, "the bounding boxes",
                           (int, float, float, float, float))
        xywh = numpy.array([row[1:5] for row in boxes], dtype=numpy.float64).reshape(-1, 4)
        # (x_min, y_min, width, height) -> (y_min, x_min, y_max, x_max), summed in float64 as ChainerCV
        self.bbs = numpy.concatenate([xywh[:, 1::-1], xywh[:, 1::-1] + xywh[:, :1:-1]], axis=1).astype(numpy.float32)
        self.prob_map_paths = [os.path.join(self.prob_map_dir, os.path.splitext(path)[0] + ".png")
                               for path in self.paths]
        self.add_getter("bbox", self._get_bbox)
        self.add_getter("prob_map", self._get_prob_map)

    def __len__(self):
        return len(self.paths)

    def _get_bbox(self, i):
        return self.bbs[i][None]

    def _get_prob_map(self, i):
        return read_label(self.prob_map_paths[i], dtype=numpy.uint8).astype(numpy.float32) / 255


cub_label_names = (
    "Black_footed_Albatross", "Laysan_Albatross", "Sooty_Albatross", "Groove_billed_Ani", "Crested_Auklet",
    "Least_Auklet", "Parakeet_Auklet", "Rhinoceros_Auklet", "Brewer_Blackbird", "Red_winged_Blackbird",
    "Rusty_Blackbird", "Yellow_headed_Blackbird", "Bobolink", "Indigo_Bunting", "Lazuli_Bunting",
    "Painted_Bunting", "Cardinal", "Spotted_Catbird", "Gray_Catbird", "Yellow_breasted_Chat",
    "Eastern_Towhee", "Chuck_will_Widow", "Brandt_Cormorant", "Red_faced_Cormorant", "Pelagic_Cormorant",
    "Bronzed_Cowbird", "Shiny_Cowbird", "Brown_Creeper", "American_Crow", "Fish_Crow",
    "Black_billed_Cuckoo", "Mangrove_Cuckoo", "Yellow_billed_Cuckoo", "Gray_crowned_Rosy_Finch",
    "Purple_Finch", "Northern_Flicker", "Acadian_Flycatcher", "Great_Crested_Flycatcher",
    "Least_Flycatcher", "Olive_sided_Flycatcher", "Scissor_tailed_Flycatcher", "Vermilion_Flycatcher",
    "Yellow_bellied_Flycatcher", "Frigatebird", "Northern_Fulmar", "Gadwall", "American_Goldfinch",
    "European_Goldfinch", "Boat_tailed_Grackle", "Eared_Grebe", "Horned_Grebe", "Pied_billed_Grebe",
    "Western_Grebe", "Blue_Grosbeak", "Evening_Grosbeak", "Pine_Grosbeak", "Rose_breasted_Grosbeak",
    "Pigeon_Guillemot", "California_Gull", "Glaucous_winged_Gull", "Heermann_Gull", "Herring_Gull",
    "Ivory_Gull", "Ring_billed_Gull", "Slaty_backed_Gull", "Western_Gull", "Anna_Hummingbird",
    "Ruby_throated_Hummingbird", "Rufous_Hummingbird", "Green_Violetear", "Long_tailed_Jaeger",
    "Pomarine_Jaeger", "Blue_Jay", "Florida_Jay", "Green_Jay", "Dark_eyed_Junco", "Tropical_Kingbird",
    "Gray_Kingbird", "Belted_Kingfisher", "Green_Kingfisher", "Pied_Kingfisher", "Ringed_Kingfisher",
    "White_breasted_Kingfisher", "Red_legged_Kittiwake", "Horned_Lark", "Pacific_Loon", "Mallard",
    "Western_Meadowlark", "Hooded_Merganser", "Red_breasted_Merganser", "Mockingbird", "Nighthawk",
    "Clark_Nutcracker", "White_breasted_Nuthatch", "Baltimore_Oriole", "Hooded_Oriole", "Orchard_Oriole",
    "Scott_Oriole", "Ovenbird", "Brown_Pelican", "White_Pelican", "Western_Wood_Pewee", "Sayornis",
    "American_Pipit", "Whip_poor_Will", "Horned_Puffin", "Common_Raven", "White_necked_Raven",
    "American_Redstart", "Geococcyx", "Loggerhead_Shrike", "Great_Grey_Shrike", "Baird_Sparrow",
    "Black_throated_Sparrow", "Brewer_Sparrow", "Chipping_Sparrow", "Clay_colored_Sparrow", "House_Sparrow",
    "Field_Sparrow", "Fox_Sparrow", "Grasshopper_Sparrow", "Harris_Sparrow", "Henslow_Sparrow",
    "Le_Conte_Sparrow", "Lincoln_Sparrow", "Nelson_Sharp_tailed_Sparrow", "Savannah_Sparrow",
    "Seaside_Sparrow", "Song_Sparrow", "Tree_Sparrow", "Vesper_Sparrow", "White_crowned_Sparrow",
    "White_throated_Sparrow", "Cape_Glossy_Starling", "Bank_Swallow", "Barn_Swallow", "Cliff_Swallow",
    "Tree_Swallow", "Scarlet_Tanager", "Summer_Tanager", "Artic_Tern", "Black_Tern", "Caspian_Tern",
    "Common_Tern", "Elegant_Tern", "Forsters_Tern", "Least_Tern", "Green_tailed_Towhee", "Brown_Thrasher",
    "Sage_Thrasher", "Black_capped_Vireo", "Blue_headed_Vireo", "Philadelphia_Vireo", "Red_eyed_Vireo",
    "Warbling_Vireo", "White_eyed_Vireo", "Yellow_throated_Vireo", "Bay_breasted_Warbler",
    "Black_and_white_Warbler", "Black_throated_Blue_Warbler", "Blue_winged_Warbler", "Canada_Warbler",
    "Cape_May_Warbler", "Cerulean_Warbler", "Chestnut_sided_Warbler", "Golden_winged_Warbler",
    "Hooded_Warbler", "Kentucky_Warbler", "Magnolia_Warbler", "Mourning_Warbler", "Myrtle_Warbler",
    "Nashville_Warbler", "Orange_crowned_Warbler", "Palm_Warbler", "Pine_Warbler", "Prairie_Warbler",
    "Prothonotary_Warbler", "Swainson_Warbler", "Tennessee_Warbler", "Wilson_Warbler",
    "Worm_eating_Warbler", "Yellow_Warbler", "Northern_Waterthrush", "Louisiana_Waterthrush",
    "Bohemian_Waxwing", "Cedar_Waxwing", "American_Three_toed_Woodpecker", "Pileated_Woodpecker",
    "Red_bellied_Woodpecker", "Red_cockaded_Woodpecker", "Red_headed_Woodpecker", "Downy_Woodpecker",
    "Bewick_Wren", "Cactus_Wren", "Carolina_Wren", "House_Wren", "Marsh_Wren", "Rock_Wren", "Winter_Wren",
    "Common_Yellowthroat",
)
