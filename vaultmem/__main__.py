from vaultmem.cli import main

main()
