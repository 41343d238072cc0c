"""Messages and their registry: encoding, decoding, field checks, evolution rules."""

import pytest
from dungeon_twister.protocol import (
    ERROR_CODES,
    MESSAGES,
    Action,
    ChatMessage,
    CreateTable,
    Join,
    ProtocolError,
    Role,
    TableOptions,
)
from dungeon_twister.protocol.codec import decode_message, encode_message, pack_map, unpack_map
from dungeon_twister.protocol.fields import wire_fields
from protocol_fixtures import EXAMPLES


def test_every_registered_message_has_an_example():
    assert {example.spec.name for example in EXAMPLES} == set(MESSAGES)


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda message: message.spec.name)
def test_every_message_round_trips_through_msgpack(message):
    raw = unpack_map(pack_map(encode_message(message)), 10_000)
    assert raw["type"] == message.spec.name
    assert decode_message(raw) == message


def test_type_comes_first_then_fields_in_declaration_order():
    assert list(encode_message(Action("t-1", "a-1", "pass"))) == ["type", "table", "action_id", "text"]


def test_nil_optional_fields_are_omitted_and_absent_ones_take_their_default():
    assert encode_message(Join("t-1")) == {"type": "join", "table": "t-1"}
    assert decode_message({"type": "join", "table": "t-1", "seat": None}) == Join("t-1")
    assert decode_message({"type": "create_table", "options": {}}) == CreateTable(TableOptions())


def test_unknown_keys_are_ignored():
    raw = {"type": "join", "table": "t-1", "colour": "red", b"bin-key": 1, "seat": "B"}
    assert decode_message(raw) == Join("t-1", "B")


def test_a_field_can_travel_under_another_key():
    assert encode_message(ChatMessage("ann", "hi"))["from"] == "ann"
    assert decode_message({"type": "chat_message", "from": "ann", "text": "hi"}) == ChatMessage("ann", "hi")


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"table": "t-1"}, "missing_field"),
        ({"type": 7}, "bad_field"),
        ({"type": "teleport"}, "unknown_type"),
        ({"type": "join"}, "missing_field"),
        ({"type": "join", "table": None}, "bad_field"),
        ({"type": "join", "table": 12}, "bad_field"),
        ({"type": "join", "table": ""}, "bad_field"),
        ({"type": "join", "table": "t" * 65}, "bad_field"),
        ({"type": "join", "table": "t-1", "seat": "G"}, "bad_field"),
        ({"type": "action", "table": "t-1", "action_id": "a", "text": b"pass"}, "bad_field"),
        ({"type": "create_table", "options": {"target_vp": 9}}, "bad_field"),
        ({"type": "create_table", "options": {"target_vp": True}}, "bad_field"),
        ({"type": "create_table", "options": []}, "bad_field"),
        ({"type": "commit", "table": "t-1", "purpose": "team", "commitment": b"short"}, "bad_field"),
        ({"type": "commit", "table": "t-1", "purpose": "team", "commitment": "x" * 32}, "bad_field"),
        ({"type": "hello", "versions": [1], "client": {"name": "c"}, "role": "player", "name": "a"}, "missing_field"),
        (
            {"type": "hello", "versions": "1", "client": {"name": "c", "version": "1"}, "role": "player", "name": "a"},
            "bad_field",
        ),
        ({"type": "ping", "id": -1}, "bad_field"),
    ],
)
def test_invalid_maps_are_remote_errors_that_keep_the_connection(raw, code):
    with pytest.raises(ProtocolError) as caught:
        decode_message(raw)
    assert (caught.value.code, caught.value.fault, caught.value.fatal) == (code, "remote", False)


def test_error_messages_name_the_field():
    with pytest.raises(ProtocolError, match=r"create_table\.options\.target_vp"):
        decode_message({"type": "create_table", "options": {"target_vp": 4}})


def test_encoding_an_invalid_message_is_a_local_error():
    with pytest.raises(ProtocolError) as caught:
        encode_message(Join("t-1", seat="green"))
    assert (caught.value.code, caught.value.fault) == ("bad_field", "local")
    with pytest.raises(ProtocolError, match="missing_field"):
        encode_message(Join(None))


def test_spectators_can_send_no_game_action_commit_or_reveal():
    for name in ("action", "commit", "reveal", "join", "create_table", "seat_bot"):
        assert Role.SPECTATOR not in MESSAGES[name].sent_by


def test_every_message_goes_between_a_client_and_the_server():
    for spec in MESSAGES.values():
        assert spec.sent_by and spec.sent_to and spec.states and spec.since == 1
        assert Role.SERVER in spec.sent_by | spec.sent_to


def test_no_field_uses_the_type_key_and_every_error_code_is_from_version_1():
    assert all(field.key != "type" for spec in MESSAGES.values() for field in wire_fields(spec.cls))
    assert all(code.since == 1 for code in ERROR_CODES.values())


def test_unregistered_error_codes_are_refused():
    with pytest.raises(ValueError, match="unregistered"):
        ProtocolError("oops", "no such code")
    assert ProtocolError("internal", "bug").fault == "local"
    assert ProtocolError("commit_twice", "again").fault == "remote"


def test_the_package_loads_its_names_when_first_asked_and_a_decoder_alone_knows_every_message():
    """ops32: the package's __init__ imports nothing until one of its names is asked for (so that `--version`
    loads protocol/versions.py alone), then that name's module and the codec, which registers every message (as the
    plain imports of before did); and a process that reaches the codec without the package's names still decodes
    every message (the registry is filled by the msg_ modules, which codec.py imports itself). Checked in fresh
    interpreters: this one has loaded everything already."""
    import subprocess
    import sys

    import dungeon_twister.protocol as protocol

    def loaded(code: str) -> list[str]:
        code = ("import sys\n" + code + "\nprint(sorted(m.rsplit('.', 1)[-1] for m in sys.modules "
                "if m.startswith('dungeon_twister.protocol.')))")
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        return eval(result.stdout.strip().splitlines()[-1])

    assert loaded("import dungeon_twister.protocol") == []
    assert loaded("from dungeon_twister.protocol import versions") == ["versions"]
    assert {"roles", "codec", "msg_game", "msg_handshake", "msg_lobby", "msg_secret", "msg_session"} <= set(
        loaded("from dungeon_twister.protocol import Role"))
    names = {example.spec.name for example in EXAMPLES}
    assert loaded("from dungeon_twister.protocol.codec import decode_message, encode_message\n"
                  "from dungeon_twister.protocol.registry import MESSAGES\n"
                  f"assert set(MESSAGES) == {names!r}, sorted(MESSAGES)")
    assert all(getattr(protocol, name) is not None for name in protocol.__all__)
    assert set(protocol.__all__) <= set(dir(protocol))
    with pytest.raises(AttributeError):
        protocol.no_such_name
