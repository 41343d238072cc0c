"""dt-client against a hostile or broken server (task fz33): views that are valid protocol messages but whose
contents are mutated (wrong types in known keys, missing keys, long lists, odd strings) are drawn (the board, the
panel) and commands run on them (`look`, Tab completion, an action, `help`): nothing raises out of the client; a
view it cannot draw is said in its place ("this cannot be drawn: ...")."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from dungeon_twister.client.completion import PromptCompleter
from dungeon_twister.protocol import Snapshot, TableEvent

from dungeon_twister.engine.cards import CardOptions, new_game, view as cards_view
from test_client_hostile import POSITION, good_view
from test_client_prompt import TABLE, WiredSession, screen

FUZZ = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

odd = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=12) | st.binary(max_size=8)
    | st.sampled_from(["", " ", "\x1b[2J", "bWA", "c4", "end", "FS", "\u202e", "x" * 300]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def cards_game_view() -> dict:
    v = cards_view(new_game(CardOptions(2), 5), "B")
    v.update(legal=["end"], seats={"B": "ann", "Y": "bot"}, table={"id": TABLE, "target_vp": 3, "game": "cards"},
             started=True)
    return v


BASES = {"board": good_view, "cards": cards_game_view}
KEYS = sorted(set(good_view()) | set(cards_game_view()))
mutation = st.tuples(st.sampled_from(KEYS), st.sampled_from(["set", "drop", "long", "inner"]), odd)


def mutated(base: str, changes) -> dict:
    view = BASES[base]()
    for key, how, value in changes:
        if how == "inner":  # a field of an entry of a list or map (a token's id, a room's card)
            entry = view.get(key)
            if isinstance(entry, list) and entry and isinstance(entry[0], dict) and entry[0]:
                entry[0][sorted(entry[0])[0]] = value
            elif isinstance(entry, dict) and entry:
                entry[sorted(entry)[0]] = value
        elif how == "drop":
            view.pop(key, None)
        elif how == "long":
            view[key] = [value] * 500
        else:
            view[key] = value
    return view


@FUZZ
@given(st.sampled_from(sorted(BASES)), st.lists(mutation, min_size=1, max_size=3), st.booleans())
def test_a_mutated_view_is_drawn_or_said_and_commands_run_on(base, changes, as_event):
    wired = WiredSession()
    wired.seat(POSITION)
    view = mutated(base, changes)
    wired.deliver(TableEvent(TABLE, 1, {"kind": "view", "view": view}) if as_event else Snapshot(TABLE, 1, view))
    state = wired.session.state
    state.view = view  # also as if it had been taken in as it is (the screens must stand it)
    shown = screen(wired.session, "look bWA\r" + "help\r" + "end\r", rows=40, columns=100)
    assert "Traceback" not in shown
    completer = PromptCompleter(state)
    for typed in ("", "l", "look ", "en", "move bWA "):
        list(completer.get_completions(Document(typed), CompleteEvent(completion_requested=True)))


def test_the_cases_the_review_named_look_the_fireball_warning_and_an_empty_legal_choice():
    """`look bWA`, the Fireball warning (session._carries, _aimed_amiss) on a view whose tokens are no list, and an
    empty legal choice "" at the prompt: each crashed the client (review before fz33)."""
    wired = WiredSession()
    wired.seat(POSITION)
    for tokens in (5, "x", None, [5, None, {"id": 5}]):
        view = {**good_view(), "tokens": tokens, "legal": ["", "fireball bWA e", "end"]}
        wired.session.state.view = view
        shown = screen(wired.session, "look bWA\r" + "fireball bWA e\r" + "\t\r", rows=40, columns=100)
        assert "Traceback" not in shown


EVENT_KINDS = ["view", "action", "log", "game_over", "chat", "turn", "moved", "combat", "revealed", "draw_offer", "x"]
EVENT_KEYS = ["text", "by", "seat", "event", "events", "payload", "view", "winner", "reason", "action", "rule",
              "figure", "square"]


@settings(FUZZ, max_examples=30)
@given(st.sampled_from(EVENT_KINDS), st.dictionaries(st.sampled_from(EVENT_KEYS), odd, max_size=4))
def test_a_table_event_of_odd_contents_costs_at_most_that_event(kind, payload):
    wired = WiredSession()
    wired.seat(POSITION)
    wired.deliver(TableEvent(TABLE, 1, {"kind": kind, **payload}))
    assert "Traceback" not in screen(wired.session, "help\r", rows=40, columns=100)
