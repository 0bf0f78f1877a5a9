"""Array functions of kusari.chem."""
