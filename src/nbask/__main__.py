"""``python -m nbask``: the ``nbask`` command (``nbask.cli``)."""

import sys

from .cli import main

sys.exit(main())
