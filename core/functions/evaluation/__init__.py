"""kusari.functions.evaluation: see the modules in this folder, one op each."""
from kusari.functions.evaluation.accuracy import accuracy  # NOQA
from kusari.functions.evaluation.binary_accuracy import binary_accuracy  # NOQA
from kusari.functions.evaluation.classification_summary import classification_summary  # NOQA
from kusari.functions.evaluation.classification_summary import f1_score  # NOQA
from kusari.functions.evaluation.classification_summary import precision  # NOQA
from kusari.functions.evaluation.classification_summary import recall  # NOQA
from kusari.functions.evaluation.r2_score import r2_score  # NOQA
