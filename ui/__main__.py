"""``python -m kusari.ui``: the same command line as ``kusari-ui``."""
from kusari.ui.cli import main

raise SystemExit(main())
