"""kusari.functions.util: see the modules in this folder, one op each."""
from kusari.functions.util.forget import forget  # NOQA
