"""Array-shaping links of kusari.chem."""
