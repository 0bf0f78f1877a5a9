"""Math functions of kusari.chem."""
