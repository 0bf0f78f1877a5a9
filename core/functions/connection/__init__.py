"""kusari.functions.connection: see the modules in this folder, one op each."""
