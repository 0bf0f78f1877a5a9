"""``python -m kusari.chem train | predict | fingerprint``: see :mod:`kusari.chem.cli`."""
import sys

from kusari.chem.cli import main

sys.exit(main())
