"""The frozen executable's entry point: the same `limbic` command as the console script."""

import sys

from limbic.cli import main

if __name__ == "__main__":
    sys.exit(main())
