"""The protocol package does no I/O and does not depend on the engine, the server or the client."""

import subprocess
import sys

FORBIDDEN = (
    "trio",
    "asyncio",
    "socket",
    "selectors",
    "prompt_toolkit",
    "dungeon_twister.engine",
    "dungeon_twister.server",
    "dungeon_twister.client",
)


def test_importing_the_protocol_loads_no_io_or_engine_module():
    probe = (
        "import sys, dungeon_twister.protocol\n"
        f"print(sorted(m for m in sys.modules if m.startswith({FORBIDDEN!r})))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
