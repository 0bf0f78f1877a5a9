"""kusari.chem.functions (Chainer Chemistry's chainer_chemistry.functions)."""
from kusari.chem.functions.activation.megnet_softplus import megnet_softplus  # NOQA
from kusari.chem.functions.activation.shifted_softplus import shifted_softplus  # NOQA
from kusari.chem.functions.activation.softmax import softmax  # NOQA
from kusari.chem.functions.array.put_rows import put_rows, PutRows  # NOQA
from kusari.chem.functions.array.take_rows import take_rows, TakeRows  # NOQA
from kusari.chem.functions.evaluation.r2_score import r2_score, R2Score  # NOQA
from kusari.chem.functions.loss.mean_absolute_error import mean_absolute_error, MeanAbsoluteError  # NOQA
from kusari.chem.functions.loss.mean_squared_error import mean_squared_error, MeanSquaredError  # NOQA
from kusari.chem.functions.math.matmul import matmul  # NOQA
