"""kusari.functions.noise: see the modules in this folder, one op each."""
