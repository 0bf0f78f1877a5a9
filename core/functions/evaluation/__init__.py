"""kusari.functions.evaluation: see the modules in this folder, one op each."""
