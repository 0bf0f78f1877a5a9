"""Trainer extensions: logging, reporting, evaluation, snapshots, schedules and checks."""
from kusari.training.extensions import snapshot_writers  # NOQA
from kusari.training.extensions._snapshot import snapshot, snapshot_object  # NOQA
from kusari.training.extensions.evaluator import Evaluator  # NOQA
from kusari.training.extensions.log_report import LogReport  # NOQA
from kusari.training.extensions.micro_average import MicroAverage  # NOQA
from kusari.training.extensions.print_report import PrintReport  # NOQA
from kusari.training.extensions.progress_bar import ProgressBar  # NOQA
