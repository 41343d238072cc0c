"""The server's shortcuts in making a step's views send exactly the bytes of views made and packed afresh (issue 7):
the engine's shared layout tuples (`view(shared=True)`), the bytes a first view takes from the last step's and a
class's view from another class's (`PackedView.of`'s `like`). Seeded games are played through a real server by
bench/server_steps.py's deterministic driver (trio's clock standing still, the server's random draws seeded), once
as the server runs and once with every view made with fresh lists and packed alone, and every connection (players
and spectators, whole views and deltas) must have received the same bytes."""

import importlib.util
import random
import secrets
from pathlib import Path

import trio
import trio.testing
from dungeon_twister.protocol.views import PackedView
from dungeon_twister.server import session as session_module
from dungeon_twister.server import table as table_module

GAMES = ["beginner", "paladins", "cards"]
ACTIONS = 120


def _driver():
    path = Path(__file__).resolve().parents[2] / "bench" / "server_steps.py"
    spec = importlib.util.spec_from_file_location("server_steps_driver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _played(driver, monkeypatch) -> dict:
    """{game: {connection: (bytes, digest)}} of the driver's games, its random draws fixed for this run only."""
    for name in ("token_bytes", "token_hex", "token_urlsafe", "randbits"):
        monkeypatch.setattr(secrets, name, getattr(secrets, name))
    monkeypatch.setattr(session_module, "_numbers", session_module._numbers)
    monkeypatch.setattr(trio._core._run, "_ALLOW_DETERMINISTIC_SCHEDULING", False)
    monkeypatch.setattr(trio._core._run, "_r", random.Random())
    driver.fixed_secrets(0)
    results = trio.run(driver.run, GAMES, ACTIONS, True, False, 0, clock=trio.testing.MockClock())
    return {name: result["peers"] for name, result in results.items()}


def test_the_views_shortcuts_send_the_bytes_of_views_packed_afresh(monkeypatch):
    driver = _driver()
    fast = _played(driver, monkeypatch)

    plain_of = PackedView.of.__func__
    plain_view = table_module.table_view
    with monkeypatch.context() as plain:
        plain.setattr(PackedView, "of", classmethod(lambda cls, view, like=None: plain_of(cls, view)))
        plain.setattr(table_module, "table_view", lambda *args, shared=False, **kwargs: plain_view(*args, **kwargs))
        slow = _played(driver, monkeypatch)

    assert fast == slow
    for name in GAMES:
        assert len(fast[name]) == 4  # two players and two spectators (whole views, deltas)
        assert all(size > 10_000 for size, _ in fast[name].values())
