"""``python -m vaultmem.cli``: the CLI, as ``python -m vaultmem`` and the ``vaultmem`` script run it."""

from vaultmem.cli import main

main()
