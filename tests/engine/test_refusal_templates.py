"""The engine's refusals as a template and its values (issue 11): `IllegalAction(rule, template, **values)`, whose
message is `template.format(**values)`, so that a client can translate the sentence and keep the notation; the
parser's errors likewise (`NotationError(template, text, column, **values)`, `Words.fail(template, index, **values)`,
`AmbiguousAction(template, candidates, **values)`)."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from dungeon_twister.engine import AmbiguousAction, IllegalAction, NotationError, parse_action
from dungeon_twister.engine.boardgame import golden, moves
from dungeon_twister.engine.core.errors import N_
from dungeon_twister.engine.prison import ranged
from tests.engine.builders import assert_refused, position

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def fields(template: str) -> set[str]:
    """The named fields of a str.format template ({square}, {count:d})."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def engine_templates():
    """(file:line, template, the keyword names given or None when they are spread with **) of every
    IllegalAction(rule, "template", ...), NotationError("template", ...), AmbiguousAction("template", ...) and
    parser's `.fail("template", ...)` written in the engine, and (file:line, template, None) of every N_("...")."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ENGINE.parent)}:{node.lineno}"
            spread = any(k.arg is None for k in node.keywords)
            names = None if spread else {k.arg for k in node.keywords}
            if isinstance(node.func, ast.Attribute) and node.func.attr == "fail" and node.args \
                    and literal(node.args[0]) is not None:
                found.append((where, literal(node.args[0]), names))
            if not isinstance(node.func, ast.Name):
                continue
            if node.func.id == "NotationError" and node.args and literal(node.args[0]) is not None:
                found.append((where, literal(node.args[0]), names))
            if node.func.id == "AmbiguousAction" and node.args and literal(node.args[0]) is not None:
                found.append((where, literal(node.args[0]), names | {"candidates"}))
            if node.func.id == "IllegalAction" and len(node.args) >= 2 and literal(node.args[1]) is not None:
                spread = any(k.arg is None for k in node.keywords)
                found.append((where, literal(node.args[1]), None if spread else {k.arg for k in node.keywords}))
            elif node.func.id == "N_" and node.args and literal(node.args[0]) is not None:
                found.append((where, literal(node.args[0]), None))
    return found


TEMPLATES = engine_templates()


def test_the_engine_writes_its_refusals_as_templates():
    assert len(TEMPLATES) > 350, "every refusal of the engine is a template (IllegalAction or N_)"
    errors = ("IllegalAction", "NotationError", "AmbiguousAction")
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) and node.func.id in errors
                                               or isinstance(node.func, ast.Attribute) and node.func.attr == "fail"):
                assert not any(isinstance(arg, ast.JoinedStr) for arg in node.args), \
                    f"{path}:{node.lineno}: an f-string refusal (a template and its values instead)"


def test_the_parsers_write_their_errors_as_templates():
    """Every NotationError of the parsers (about 110 places) is a literal template, or a template marked N_ kept in
    a variable or passed to `Words.next`/`square`/`number` ("missing a verb"): none is built from English words."""
    notation = [t for where, t, _ in TEMPLATES if "notation" in where or "position" in where or "records" in where]
    assert len(notation) > 100
    assert "{message} at column {column}: {text}" in {t for _, t, _ in TEMPLATES}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("fail", "next", "square", "number") and node.args:
                first = node.args[0]
                assert not isinstance(first, (ast.JoinedStr, ast.BinOp)), f"{path}:{node.lineno}: a glued message"
                if node.func.attr in ("next", "square", "number"):
                    assert all(isinstance(a, ast.Call) and getattr(a.func, "id", None) == "N_"
                               or isinstance(a, ast.Name) and a.id in ("missing", "expected") for a in node.args), \
                        f"{path}:{node.lineno}: a parser's template passed on is marked N_ (one full sentence)"


def test_a_typo_is_a_template_and_its_values_and_says_where():
    """The typo of issue 11's example: the room Z9 does not exist (rooms are A1..B4). `message` is the template
    formatted; the error adds the 1-based column and the text with the AT template, and `full_template` /
    `full_values` are the whole error as one template (what the server sends)."""
    with pytest.raises(NotationError) as caught:
        parse_action("hide bRP Z9", "B")
    error = caught.value
    assert (error.template, error.values) == ("expected a room like A1 or B4, got {word}", {"word": "'Z9'"})
    assert error.message == "expected a room like A1 or B4, got 'Z9'"
    assert str(error) == "expected a room like A1 or B4, got 'Z9' at column 10: 'hide bRP Z9'"
    assert str(error) == NotationError.AT.format(message=error.message, column=10, text="'hide bRP Z9'")
    assert error.full_template == error.template + " at column {column}: {text}"
    assert error.full_template.format(**error.full_values) == str(error)
    assert (error.text, error.column) == ("hide bRP Z9", 9)
    bare = NotationError("an action is at most {limit} characters long, not {length}", limit=256, length=300)
    assert str(bare) == bare.message == bare.full_template.format(**bare.full_values)
    assert bare.full_template == bare.template and bare.values == {"limit": 256, "length": 300}


def test_an_ambiguous_input_is_a_template_with_its_candidates():
    error = AmbiguousAction("{text} matches {count} actions: {candidates}", ("move bTH c4", "move bWA c4"),
                            text="'c4'", count=2)
    assert error.values == {"text": "'c4'", "count": 2, "candidates": "move bTH c4, move bWA c4"}
    assert str(error) == error.message == "'c4' matches 2 actions: move bTH c4, move bWA c4"


@pytest.mark.parametrize(("where", "template", "given"), TEMPLATES, ids=[t[0] for t in TEMPLATES])
def test_every_template_formats_with_exactly_its_values(where, template, given):
    """A field without its value would raise KeyError where the refusal is made; a value without its field would be
    notation the sentence never shows. Each template formats with plain values (names, numbers)."""
    names = fields(template)
    assert all(name.isidentifier() for name in names), f"{where}: {template!r}: fields are plain names"
    if given is not None:
        assert given == names, f"{where}: {template!r} is given {sorted(given)}"
    text = template.format(**{name: "c3" for name in names})
    assert "{" not in text, f"{where}: {template!r} leaves a field unfilled"


def test_a_refusal_keeps_its_template_and_values_and_formats_its_message():
    error = IllegalAction("BG-MOVE-05", "a wall or closed portcullis lies between {here} and {there}",
                          here="c3", there="c4")
    assert (error.rule, error.template, error.values) == (
        "BG-MOVE-05", "a wall or closed portcullis lies between {here} and {there}", {"here": "c3", "there": "c4"})
    assert error.message == "a wall or closed portcullis lies between c3 and c4"
    assert str(error) == "BG-MOVE-05: a wall or closed portcullis lies between c3 and c4"
    plain = IllegalAction("BG-END-02", "the game is over")
    assert (plain.template, plain.values, plain.message) == ("the game is over", {}, "the game is over")
    # values are str or int on the wire: anything else is kept as its text, which formats the same
    odd = IllegalAction("BG-AP-01", "unknown {what}", what=("a", 1))
    assert odd.values == {"what": "('a', 1)"} and odd.message == "unknown ('a', 1)"
    assert N_("{square} would hold {count} tokens") == "{square} would hold {count} tokens"


def test_BG_MOVE_05_a_real_refusal_is_its_template_formatted_with_notation():
    """BG-MOVE-05: the wall b13|c13; the values are squares in notation."""
    error = assert_refused(position("bWA@b13"), "move bWA c13", "BG-MOVE-05")
    assert error.template == "a wall or closed portcullis lies between {here} and {there}"
    assert error.values == {"here": "b13", "there": "c13"}
    assert error.message == "a wall or closed portcullis lies between b13 and c13"


def test_BG_MOVE_01_a_refusal_with_a_number_keeps_it_an_int():
    """BG-MOVE-01: the Warrior's move value is 3 (base set data), so a route of 4 steps is refused; `steps` is the
    int 3 and the message says 3."""
    error = assert_refused(position("bWA@c3"), "move bWA c4-c5-c6-c7", "BG-MOVE-01")
    assert error.values == {"mover": "bWA", "steps": 3} and type(error.values["steps"]) is int
    assert error.message == error.template.format(**error.values) == "bWA moves at most 3 squares"


def test_BG_GOLD_02_a_golden_rule_inside_a_move_refusal_has_one_template_per_case():
    """BG-MOVE-12/BG-ITEM-01/BG-ITEM-04 restate a golden rule's refusal (golden._RULES): moves._THERE holds the
    whole sentence of each pair, so no English fragment travels as a value."""
    inner = {template for _, template in golden._RULES.values()}
    assert set(moves._THERE) == {(outer, template) for outer in ("end", "carry", "left") for template in inner}
    for (outer, template), whole in moves._THERE.items():
        assert whole.endswith(": " + template) and fields(template) <= fields(whole)


def test_PR_RANGED_09_each_reason_of_a_joiner_has_its_whole_sentence():
    """PR-RANGED-09: "{token} cannot shoot {target} too: " and each refusal of shot_problem, as one template."""
    source = ast.parse((ENGINE / "prison" / "ranged.py").read_text(encoding="utf-8"))
    function = next(n for n in ast.walk(source) if isinstance(n, ast.FunctionDef) and n.name == "shot_problem")
    reasons = {literal(n.args[1]) for n in ast.walk(function) if isinstance(n, ast.Call)
               and isinstance(n.func, ast.Name) and n.func.id == "IllegalAction"}
    assert set(ranged._TOO) == reasons
    for reason, whole in ranged._TOO.items():
        assert whole == "{token} cannot shoot {target} too: " + reason
