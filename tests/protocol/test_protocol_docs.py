"""docs/protocol.md documents every message, record and error code exactly as the registries define them."""

from pathlib import Path

import pytest
from dungeon_twister.protocol import ERROR_CODES, MESSAGES, ResumeInfo, Role, Software, State, TableInfo, TableOptions
from dungeon_twister.protocol.fields import wire_fields

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
RECORDS = (Software, ResumeInfo, TableOptions, TableInfo)


def fields_cell(cls: type) -> str:
    cells = [f"`{field.key}{'' if field.required else '?'}`: {field.kind.describe()}" for field in wire_fields(cls)]
    return (", ".join(cells) or "—").replace("|", "\\|")


def roles_cell(roles: frozenset[Role]) -> str:
    return ", ".join(role.value for role in Role if role in roles)


def message_row(name: str) -> str:
    spec = MESSAGES[name]
    states = ", ".join(state.value for state in State if state in spec.states)
    return (
        f"| `{name}` | {spec.since} | {roles_cell(spec.sent_by)} → {roles_cell(spec.sent_to)} | {states} "
        f"| {fields_cell(spec.cls)} |"
    )


def record_row(cls: type) -> str:
    return f"| {cls.__name__} | {fields_cell(cls)} |"


def error_row(code: str) -> str:
    spec = ERROR_CODES[code]
    return f"| `{code}` | {spec.fault} | {'yes' if spec.fatal else 'no'} | {spec.since} | {spec.meaning} |"


@pytest.mark.parametrize("name", MESSAGES)
def test_every_message_is_documented(name):
    assert message_row(name) in DOC


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__name__)
def test_every_record_is_documented(cls):
    assert record_row(cls) in DOC


@pytest.mark.parametrize("code", ERROR_CODES)
def test_every_error_code_is_documented(code):
    assert error_row(code) in DOC
