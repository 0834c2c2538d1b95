"""The frozen executable's entry point: the same `limbic` command as the console script."""

import multiprocessing
import sys

from limbic.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the health scan's process starts this executable again
    sys.exit(main())
