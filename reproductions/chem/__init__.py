"""Chemistry reproductions: MoleculeNet benchmarks (Wu et al., Chem. Sci. 2018) on kusari.chem's graph networks."""
