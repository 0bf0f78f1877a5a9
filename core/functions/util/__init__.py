"""kusari.functions.util: see the modules in this folder, one op each."""
