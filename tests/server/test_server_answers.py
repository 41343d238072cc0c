"""A seat's answers to its action ids (server/answers.py): the recent ones whole, the older accepted ones by hash
with their text in the journal (Storage.answered)."""

from dungeon_twister.protocol import ActionRefused
from dungeon_twister.server import answers
from dungeon_twister.server.answers import Answers
from dungeon_twister.server.storage import SqliteStorage


def test_the_store_finds_the_typed_text_of_a_seats_accepted_action_by_its_id():
    store = SqliteStorage(":memory:")
    store.add_line("t-1", "B: card 2", {"k": "action", "id": "a-1", "typed": "2"})
    store.add_line("t-1", "Y: card 3", {"k": "action", "id": "a-1", "typed": "card 3"})
    store.add_line("t-1", "# commit B combat-1 00", {"k": "commit", "id": "a-2", "seat": "B"})
    store.add_line("t-2", "B: end", {"k": "action", "id": "a-3", "typed": "end"})
    assert store.answered("t-1", "B", "a-1") == "2"
    assert store.answered("t-1", "Y", "a-1") == "card 3"  # ids are unique per seat, not per table
    assert store.answered("t-1", "B", "a-2") is None  # not an action line
    assert store.answered("t-1", "B", "a-3") is None  # another table's
    assert store.answered("t-1", "B", "nope") is None
    # an id is the client's string: LIKE's wildcards, quotes, backslashes and case are taken as they are
    store.add_line("t-1", "B: end", {"k": "action", "id": 'a_%"\\1', "typed": "end"})
    assert store.answered("t-1", "B", 'a_%"\\1') == "end"
    assert store.answered("t-1", "B", 'ab%"\\1') is None and store.answered("t-1", "B", 'a_%"\\') is None
    assert store.answered("t-1", "B", "A-1") is None  # "a-1" only
    store.add_line("t-1", "B: end", {"k": "action", "id": "é-1", "typed": "end"})
    assert store.answered("t-1", "B", "é-1") == "end" and store.answered("t-1", "B", "É-1") is None
    store.close()


def test_old_answers_leave_memory_and_accepted_ones_are_asked_of_the_journal(monkeypatch):
    monkeypatch.setattr(answers, "RECENT", 2)
    journal = {"a-1": "card 2"}
    asked = []

    def journal_text(action_id):
        asked.append(action_id)
        return journal.get(action_id)

    kept = Answers(journal_text)
    kept.accepted("a-1", "card 2")
    kept.accepted("a-2", "end")  # accepted, but (as if) its hash matched another id's: not in the journal
    no = ActionRefused("r-1", "illegal_action", "no")
    kept.refused("r-1", "fly", no)
    assert kept.get("r-1") == ("fly", no) and asked == []  # a recent refusal: whole, in memory
    assert kept.get("a-1") == "card 2" and asked == ["a-1"]  # an accepted id, however recent: from the journal
    assert kept.get("a-2") is None  # the journal does not confirm the hash: a new id
    kept.refused("r-2", "fly", no)
    kept.refused("r-3", "fly", no)
    assert kept._ids == ["r-2", "r-3"]  # at most RECENT refusals, the newest; no accepted id
    assert kept.get("r-1") is None and kept.get("never") is None  # an old refusal is forgotten
    assert asked == ["a-1", "a-2"], "the journal is asked only for a hash among the accepted"
