"""Loss functions of kusari.chem."""
