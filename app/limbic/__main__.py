"""`python -m limbic` is the `limbic` command."""

from limbic.cli import main

raise SystemExit(main())
