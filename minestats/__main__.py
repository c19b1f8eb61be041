"""``python -m minestats``: the same as the ``minestats`` command."""

import sys

from minestats.cli import main

sys.exit(main())
