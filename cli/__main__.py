"""``python -m cli``: the same as the `taktik` command."""

import sys

from .main import main

sys.exit(main())
