"""``python -m loom`` runs the CLI."""

import sys

from loom.cli import main

sys.exit(main())
