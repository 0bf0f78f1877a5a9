"""kusari.functions.loss: see the modules in this folder, one op each."""
