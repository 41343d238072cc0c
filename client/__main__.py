"""`python -m dungeon_twister.client`: the same as the dt-client command."""

import sys

from .app import main

sys.exit(main())
