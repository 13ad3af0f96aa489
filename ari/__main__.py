"""`python -m ari ...`: the CLI through the interpreter that runs it (no PATH lookup needed)."""

from ari.cli import main

main()
