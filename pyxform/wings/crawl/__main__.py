"""``python -m pyxform.wings.crawl``: TEMPORARY entry point until ``pyxform crawl`` is in the CLI package."""

import sys

from ._command import main

sys.exit(main())
