"""kusari.functions.pooling: see the modules in this folder, one op each."""
