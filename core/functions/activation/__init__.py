"""kusari.functions.activation: see the modules in this folder, one op each."""
