"""Suite-wide determinism: the same tests do the same work on every run and every machine.

- hypothesis: the "ci" profile derandomizes every property test (settings given in a test override it field by
  field, and those in this suite also derandomize), with no deadline (a deadline is a wall-clock limit) and no
  example database (which would make a run depend on earlier runs).
- trio: its scheduler shuffles the run queue with a module-level Random; seeded before each test, concurrent
  tasks interleave the same way on every run (the bot games of the server tests depend on how events are batched).
  Time in trio tests is trio.testing.MockClock (pytest-trio's autojump_clock fixture), never the real clock.
"""

import os

import pytest
import trio
from hypothesis import HealthCheck, settings

os.environ["LANGUAGE"] = "en"  # the client speaks the locale's language (client/i18n.py): the suite reads English
# (subprocesses inherit it; a test of another language asks for it, and the fixture below restores English)

settings.register_profile("ci", derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

TRIO_SCHEDULER_SEED = 20261123


@pytest.fixture(autouse=True)
def deterministic_trio_scheduling():
    scheduler_random = getattr(trio._core._run, "_r", None)  # private to trio: if it goes, only this goes
    if scheduler_random is not None:
        scheduler_random.seed(TRIO_SCHEDULER_SEED)


@pytest.fixture(autouse=True)
def english_client():
    yield
    from dungeon_twister.client import i18n

    if i18n.language() != i18n.DEFAULT:
        i18n.use(i18n.DEFAULT)
