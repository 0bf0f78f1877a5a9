"""Vision reproductions (see README.md in this folder for recipes and citations)."""
