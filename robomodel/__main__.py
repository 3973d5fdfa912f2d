"""``python -m robomodel``: the same as the ``robomodel`` command."""

import sys

from robomodel.cli import main

if __name__ == "__main__":
    sys.exit(main())
