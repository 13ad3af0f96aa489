"""`python -m ari ...`: the CLI through the interpreter that runs it (no PATH lookup needed)."""

import sys

from ari.cli import main

sys.exit(main())
