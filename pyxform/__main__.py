"""``python -m pyxform``: the same as the ``pyxform`` command."""

import sys

from .cli import main

sys.exit(main())
