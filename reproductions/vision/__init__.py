"""Vision reproductions; each module's docstring states its recipe, target and citation."""
