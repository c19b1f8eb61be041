"""Run the ``minestats`` command as ``python -m minestats.cli``."""

import sys

from minestats.cli import main

sys.exit(main())
