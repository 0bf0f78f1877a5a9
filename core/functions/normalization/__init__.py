"""kusari.functions.normalization: see the modules in this folder, one op each."""
