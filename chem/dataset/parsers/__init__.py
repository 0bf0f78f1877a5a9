"""Parsers: read molecules from DataFrames, CSV and SDF files or SMILES lists, and preprocess them."""
from kusari.chem.dataset.parsers import base_parser  # NOQA
from kusari.chem.dataset.parsers import csv_file_parser  # NOQA
from kusari.chem.dataset.parsers import data_frame_parser  # NOQA
from kusari.chem.dataset.parsers import sdf_file_parser  # NOQA
from kusari.chem.dataset.parsers import smiles_parser  # NOQA
from kusari.chem.dataset.parsers.base_parser import BaseFileParser, BaseParser  # NOQA
from kusari.chem.dataset.parsers.csv_file_parser import CSVFileParser  # NOQA
from kusari.chem.dataset.parsers.data_frame_parser import DataFrameParser  # NOQA
from kusari.chem.dataset.parsers.sdf_file_parser import SDFFileParser  # NOQA
from kusari.chem.dataset.parsers.smiles_parser import SmilesParser  # NOQA
