"""Limits against hostile peers (issue 6, part 4): closed table options, the handicap map's bounds, table-list
pages and the framing buffer a deadline can watch."""

import pytest
from dungeon_twister.protocol import CreateTable, ListTables, ProtocolError, TableInfo, TableOptions, Tables
from dungeon_twister.protocol.codec import decode_message, encode_message
from dungeon_twister.protocol.framing import FrameReader, frame
from dungeon_twister.protocol.wire_types import FieldError


def create(options: dict) -> CreateTable:
    return decode_message({"type": "create_table", "options": options})


def refused(options: dict) -> FieldError:
    """The field error a server reports for create_table with these options (its code, path and reason)."""
    with pytest.raises(ProtocolError) as caught:
        create(options)
    path, reason = caught.value.message.split(": ", 1)
    return FieldError(caught.value.code, path, reason)


def test_the_options_of_a_new_table_refuse_unknown_keys():
    error = refused({"target_vp": 6, "junk": "x" * 1000})
    assert (error.code, error.path, error.reason) == ("bad_field", "create_table.options.junk", "unknown key")
    error = refused({"x" * 100: 1})
    assert error.path == "create_table.options." + "x" * 37 + "..."  # the path stays short
    # Elsewhere (a TableInfo from a newer server) unknown keys are still ignored.
    info = decode_message({"type": "tables", "tables": [{"table": "t-1", "options": {"new": 1},
                                                         "status": "waiting", "spectators": 0}]})
    assert info == Tables((TableInfo("t-1", TableOptions(), "waiting", 0),), more=False)


def test_an_additive_option_at_its_default_is_not_sent_so_that_a_server_of_before_accepts_the_table():
    """The table options are a closed map: a server of before secret_objects refuses that key (bad_field), so a
    client sends it only when it asks for the variant; absent means false, as before."""
    v1_keys = {"target_vp", "beginner", "timers", "private"}
    assert set(encode_message(CreateTable(TableOptions()))["options"]) == v1_keys
    plain_cards = encode_message(CreateTable(TableOptions(game="cards", secret_objects=False)))["options"]
    assert set(plain_cards) == v1_keys | {"game"}
    secret = CreateTable(TableOptions(game="cards", secret_objects=True))
    assert encode_message(secret)["options"]["secret_objects"] is True
    assert decode_message(encode_message(secret)) == secret
    assert create({"game": "cards"}).options.secret_objects is False


@pytest.mark.parametrize(("handicap", "path", "code"), [
    ({"seat": "B", "note": "hi"}, "handicap.note", "bad_field"),
    ({"characters": 6}, "handicap.seat", "missing_field"),
    ({"seat": "G"}, "handicap.seat", "bad_field"),
    ({"seat": "B", "characters": 1}, "handicap.characters", "bad_field"),  # 2 to 8: CG-HCAP-04 keeps 2 to 4
    ({"seat": "B", "characters": 9}, "handicap.characters", "bad_field"),
    ({"seat": "B", "characters": True}, "handicap.characters", "bad_field"),
    ({"seat": "B", "removed_cards": [0]}, "handicap.removed_cards", "bad_field"),  # BG-OPT-09: cards 1..6
    ({"seat": "B", "removed_cards": [5, 5]}, "handicap.removed_cards", "bad_field"),
    ({"seat": "B", "removed_cards": list(range(1, 8))}, "handicap.removed_cards", "bad_field"),
    ("B", "handicap", "bad_field"),
])
def test_BG_OPT_08_the_handicap_map_is_closed_and_bounded(handicap, path, code):
    error = refused({"handicap": handicap})
    assert (error.code, error.path) == (code, f"create_table.options.{path}")


def test_BG_OPT_09_a_valid_handicap_round_trips():
    handicap = {"seat": "Y", "characters": 5, "removed_cards": [5, 6]}  # BG-EX-05
    message = create({"handicap": handicap})
    assert message.options.handicap == handicap and decode_message(encode_message(message)) == message
    with pytest.raises(ProtocolError, match="handicap.junk: unknown key"):
        encode_message(CreateTable(TableOptions(handicap={"seat": "B", "junk": 1})))  # senders check too


def test_list_tables_pages_are_additive_optional_fields():
    assert decode_message({"type": "list_tables"}) == ListTables(offset=0, limit=None)
    assert encode_message(ListTables()) == {"type": "list_tables", "offset": 0}
    assert decode_message({"type": "list_tables", "offset": 400, "limit": 50}) == ListTables(400, 50)
    with pytest.raises(ProtocolError):
        decode_message({"type": "list_tables", "limit": 0})
    old = decode_message({"type": "tables", "tables": []})  # an older server's answer
    assert (old.total, old.more) == (None, False)


def test_the_frame_reader_tells_how_much_of_a_frame_is_buffered():
    reader = FrameReader(1024)
    assert reader.buffered == 0
    data = frame(b"\x80")
    reader.feed(data[:3])
    assert reader.buffered == 3 and reader.next_frame() is None
    reader.feed(data[3:])
    assert reader.next_frame() == b"\x80" and reader.buffered == 0


# --- action_refused's template and values (docs/protocol.md, section 6) --------------------------------------
REFUSED = {"type": "action_refused", "action_id": "a-1", "code": "illegal_action",
           "message": "a wall or closed portcullis lies between c3 and c4", "rule": "BG-MOVE-05"}


def test_an_action_refused_without_template_decodes_as_before():
    message = decode_message(REFUSED)
    assert (message.template, message.values) == (None, None)
    assert "template" not in encode_message(message) and "values" not in encode_message(message)


def test_an_action_refused_with_template_and_values_round_trips():
    raw = {**REFUSED, "template": "a wall or closed portcullis lies between {here} and {there}",
           "values": {"here": "c3", "there": "c4"}}
    message = decode_message(raw)
    assert message.template.format(**message.values) == message.message
    assert decode_message(encode_message(message)) == message
    values = {**{f"k{i}": "v" * 200 for i in range(14)}, "k" * 32: -2**31, "n": 2**31 - 1}  # 16 entries
    at_the_limits = decode_message({**REFUSED, "template": "t" * 500, "values": values})
    assert at_the_limits.values == values and len(at_the_limits.template) == 500


@pytest.mark.parametrize(("extra", "path"), [
    ({"template": ""}, "action_refused.template"),
    ({"template": "t" * 501}, "action_refused.template"),
    ({"template": 7}, "action_refused.template"),
    ({"values": ["c3"]}, "action_refused.values"),
    ({"values": {f"k{i}": 1 for i in range(17)}}, "action_refused.values"),  # 16 entries at most
    ({"values": {"": "c3"}}, "action_refused.values."),
    ({"values": {"k" * 33: "c3"}}, "action_refused.values." + "k" * 33),
    ({"values": {"square": "x" * 201}}, "action_refused.values.square"),
    ({"values": {"count": 2**31}}, "action_refused.values.count"),
    ({"values": {"count": True}}, "action_refused.values.count"),  # a bool is not an int on this wire
    ({"values": {"square": None}}, "action_refused.values.square"),
    ({"values": {"square": ["c3"]}}, "action_refused.values.square"),
])
def test_action_refused_template_and_values_are_bounded_on_decode(extra, path):
    with pytest.raises(ProtocolError) as caught:
        decode_message({**REFUSED, **extra})
    assert caught.value.code == "bad_field" and caught.value.message.split(": ", 1)[0] == path


# --- error's and refused's template and values (docs/protocol.md, sections 3 and 7) --------------------------
ERROR = {"type": "error", "code": "no_such_table", "message": "there is no table 't9'", "fault": "client",
         "fatal": False}
HELLO_REFUSED = {"type": "refused", "code": "name_taken", "reason": "the name 'ann' is already used on this server"}


@pytest.mark.parametrize(("raw", "template", "values"), [
    (ERROR, "there is no table {table}", {"table": "'t9'"}),
    (HELLO_REFUSED, "the name {name} is already used on this server", {"name": "'ann'"}),
])
def test_error_and_refused_carry_a_template_as_action_refused_does(raw, template, values):
    """Additive within version 1: without the fields they decode (and encode) as before; with them they round
    trip, and the template formats to the message (error.message, refused.reason)."""
    plain = decode_message(raw)
    assert (plain.template, plain.values) == (None, None)
    assert not {"template", "values"} & set(encode_message(plain))
    message = decode_message({**raw, "template": template, "values": values})
    text = message.message if raw["type"] == "error" else message.reason
    assert message.template.format(**message.values) == text
    assert decode_message(encode_message(message)) == message


@pytest.mark.parametrize("raw", [ERROR, HELLO_REFUSED])
@pytest.mark.parametrize(("extra", "field"), [
    ({"template": "t" * 501}, "template"),
    ({"template": ""}, "template"),
    ({"values": {f"k{i}": 1 for i in range(17)}}, "values"),
    ({"values": {"table": "x" * 201}}, "values.table"),
    ({"values": {"count": True}}, "values.count"),
])
def test_error_and_refused_templates_are_bounded_on_decode(raw, extra, field):
    with pytest.raises(ProtocolError) as caught:
        decode_message({**raw, **extra})
    assert caught.value.code == "bad_field"
    assert caught.value.message.split(": ", 1)[0] == f"{raw['type']}.{field}"


def test_an_error_sent_with_a_template_keeps_it_within_the_limits():
    """`templated` errors go out with their template and values (Connection.send_error), a long string value cut
    to 200 characters, its last one "…"; a template over the limit goes as the message alone."""
    from dungeon_twister.protocol import ServerConnection, templated
    from dungeon_twister.protocol.codec import unpack_map

    def sent(error: ProtocolError):
        data = ServerConnection().send_error(error)
        return decode_message(unpack_map(data[4:], len(data)))

    error = sent(templated("no_such_table", "there is no table {table}", table="'t9'"))
    assert (error.code, error.message, error.fault, error.fatal) == ("no_such_table", "there is no table 't9'",
                                                                     "client", False)
    assert (error.template, error.values) == ("there is no table {table}", {"table": "'t9'"})
    long = sent(templated("no_such_table", "there is no table {table}", table="x" * 300))
    assert long.message == f"there is no table {'x' * 300}" and long.values == {"table": "x" * 199 + "…"}
    too_long = sent(templated("internal", "t" * 501, fault="local"))
    assert (too_long.message, too_long.template, too_long.values, too_long.fault) == ("t" * 501, None, None,
                                                                                      "server")
    untemplated = sent(ProtocolError("wrong_state", "ping is not handled here"))
    assert (untemplated.template, untemplated.values) == (None, None)
