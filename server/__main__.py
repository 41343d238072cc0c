"""`python -m dungeon_twister.server`: the same as the dt-server command."""

from .app import main

main()
