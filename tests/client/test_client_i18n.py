"""The client in five languages (issue 11): the choice of language, and catalogues that are complete, keep the
placeholders of their English texts, and are compiled (client/i18n.py, docs/translating.md)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from dungeon_twister.client import app, i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sdr]|%[sdr]")
"""A value in a text: a `str.format` name, or one of argparse's %-placeholders."""


# --- the choice of language ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("environment", "expected"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "de_DE@euro"}, "de"),
    ({"LC_ALL": "es_ES.UTF-8", "LANG": "it_IT.UTF-8"}, "es"),  # LC_ALL before LANG, as for gettext
    ({"LC_MESSAGES": "it_CH", "LANG": "fr_FR"}, "it"),
    ({"LANGUAGE": "pt_BR:de:fr", "LANG": "fr_FR"}, "de"),  # LANGUAGE's first language the client speaks
    ({"LANGUAGE": "pt_BR", "LANG": "fr_FR"}, "en"),  # the first variable set decides: none it speaks, English
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({}, "en"),
])
def test_the_language_follows_the_locale_as_gettext_reads_it(environment, expected):
    assert i18n.from_environment(environment) == expected


def test_a_language_is_chosen_by_code_and_an_unknown_one_is_refused():
    assert i18n.use("FR") == "fr" and i18n.language() == "fr"
    assert i18n.use("de-AT") == "de"
    assert i18n.use("en") == "en"
    with pytest.raises(ValueError, match="unknown language 'pt': one of en, fr, de, it, es"):
        i18n.use("pt")
    assert i18n.language() == "en", "a refused language changes nothing"


def test_the_command_line_takes_lang_before_or_after_the_command():
    assert app.language_asked(["--lang", "fr", "play"]) == "fr"
    assert app.language_asked(["play", "--bot", "random", "--lang=it"]) == "it"
    assert app.language_asked(["play", "--lang"]) is None  # argparse says what is missing
    assert app.language_asked(["connect", "host:1"]) is None
    parsed = app.build_parser().parse_args(["play", "--lang", "es"])
    assert parsed.lang == "es"
    with pytest.raises(SystemExit):
        app.build_parser().parse_args(["play", "--lang", "pt"])


# --- the catalogues -----------------------------------------------------------------------------------------
def extracted() -> dict[str, str]:
    """Every text the client's code marks (msgid -> the file that marks it), as `pybabel extract` finds them."""
    found: dict[str, str] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map=[("client/**.py", "python")], comment_tags=("TRANSLATORS:",)):
        for msgid in (message if isinstance(message, tuple) else (message,)):
            if msgid:
                found.setdefault(msgid, filename)
    return found


def refusal_templates() -> dict[str, str]:
    """The refusal templates of the engine and the server (msgid -> the file that writes it), as the extraction of
    docs/translating.md finds them (`-k IllegalAction:2 -k server_refusal:2 -k templated:2 -k _refuse:2
    -k NotationError:1 -k fail:1 -k AmbiguousAction:1`, and `N_` in the engine's tables): the sentences of
    action_refused.template (and of the server's error.template and refused.template), which the client translates
    when its catalogue has them (the parser's errors too, issue 11)."""
    found: dict[str, str] = {}
    keywords = {"N_": None, "IllegalAction": (2,), "server_refusal": (2,), "templated": (2,), "_refuse": (2,),
                "NotationError": (1,), "fail": (1,), "AmbiguousAction": (1,)}
    for filename, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map=[("engine/**.py", "python"), ("server/**.py", "python")], keywords=keywords):
        if message:
            found.setdefault(message, filename)
    return found


def catalogue(code: str):
    with open(ROOT / "client" / "locale" / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as po:
        return read_po(po, locale=code)


def test_the_code_marks_texts_for_translation():
    texts = extracted()
    assert len(texts) > 300, "the screens, help and refusals of the client are marked"
    assert "client/i18n.py" not in texts.values()


def test_the_refusal_templates_of_the_engine_and_the_server_are_extracted():
    templates = refusal_templates()
    assert len(templates) > 350, "every refusal of the engine, and the server's own, is a template"
    assert {"engine/boardgame/moves.py", "engine/cards/walk.py", "server/play.py"} <= set(templates.values())
    assert "a wall or closed portcullis lies between {here} and {there}" in templates  # BG-MOVE-05
    # the parser's errors (engine/boardgame/notation.py's Words.fail, NotationError, their N_ tables) and where
    assert {"expected a room like A1 or B4, got {word}", "missing a verb", "{message} at column {column}: {text}",
            "not a zone", "{text} matches {count} actions: {candidates}"} <= set(templates)
    with open(ROOT / "client" / "locale" / f"{i18n.DOMAIN}.pot", "rb") as pot:
        template_ids = {message.id for message in read_po(pot) if message.id}
    missing = sorted(set(templates) - template_ids)
    assert not missing, f"{len(missing)} refusal templates not in dt-client.pot (extract again), e.g. {missing[:3]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_marked_text_is_translated_and_nothing_is_left_fuzzy(code):
    """The client's own texts and the refusal templates of the engine and the server are all in the catalogue, and
    all translated (a template left untranslated would show the server's English message)."""
    entries = {message.id if isinstance(message.id, str) else message.id[0]: message
               for message in catalogue(code) if message.id}
    texts = extracted()
    missing = sorted(msgid for msgid in [*texts, *refusal_templates()] if msgid not in entries and not any(
        isinstance(m.id, tuple) and msgid in m.id for m in entries.values()))
    assert not missing, f"{code}: {len(missing)} texts not in the catalogue (docs/translating.md), e.g. {missing[:3]}"
    untranslated = [msgid for msgid, message in entries.items()
                    if not (all(message.string) if isinstance(message.string, tuple) else message.string)]
    assert not untranslated, f"{code}: untranslated: {untranslated[:3]}"
    fuzzy = [msgid for msgid, message in entries.items() if message.fuzzy]
    assert not fuzzy, f"{code}: fuzzy (a guess of msgmerge, to be checked): {fuzzy[:3]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_keeps_the_values_of_its_english_text(code):
    """A translation that loses `{square}` hides a value; one that invents `{squre}` raises KeyError on screen."""
    wrong = []
    for message in catalogue(code):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = sorted(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            if string and sorted(PLACEHOLDER.findall(string)) != expected:  # "": not translated yet
                wrong.append((ids[0], string))
    assert not wrong, f"{code}: placeholders differ: {wrong[:3]}"


def test_french_puts_a_no_break_space_before_its_double_punctuation():
    """French sets a space before : ; ? and !, and it must not break: with a plain space, the side panel's word
    wrapping put "votre contribution à la donne est engagée" on one line and ": fdf212a1…" at the start of the
    next. 84 translations had a plain space; all have U+00A0 now."""
    plain = [message.id for message in catalogue("fr") if message.id and any(
        re.search(r" [:;?!](\s|$|\W)", string)
        for string in (message.string if isinstance(message.string, tuple) else (message.string,)))]
    assert not plain, f"{len(plain)} French texts with a breaking space before : ; ? or !, e.g. {plain[:3]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_the_edited_one(code):
    """The .mo files are committed (an install needs no Babel): each says what its .po says (pybabel compile)."""
    with open(ROOT / "client" / "locale" / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    edited = catalogue(code)
    assert compiled.info()["plural-forms"] == edited.plural_forms
    for message in edited:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):  # a plural: each form where the language's rule picks it
            for n in (0, 1, 2, 5, 21):
                assert compiled.ngettext(*message.id[:2], n) == message.string[compiled.plural(n)], code
        elif message.context:  # a word the games use for two things (names.card_kind_name)
            assert compiled.pgettext(message.context, message.id) == message.string, code
        else:
            assert compiled.gettext(message.id) == message.string, f"{code}: {message.id!r}: run pybabel compile"


def test_every_character_and_object_of_every_set_has_its_name_marked():
    """Names come from the engine's data, which the extraction cannot read: client/names.py KIND_NAMES marks them,
    and `kind_name` translates from it. A kind added to a set's data without its name there would stay English."""
    from dungeon_twister.engine.boardgame.catalogue import load
    from dungeon_twister.engine.cards.catalogue import load as load_cards

    from dungeon_twister.client.names import KIND_NAMES, KNOWN_SETS

    kinds = [kind for name in KNOWN_SETS for kind in (*load(name).characters.values(), *load(name).objects.values())]
    cards = load_cards()
    kinds += [*cards.characters.values(), *cards.objects.values()]
    missing = sorted({kind.name for kind in kinds} - set(KIND_NAMES))
    assert not missing
    assert len(kinds) > 40


def test_PR_SCEN_every_scenario_s_title_goal_and_new_rules_are_marked_and_shown_translated():
    """A scenario's introduction (its title, goal and new rules: the set's data) was shown in English whatever the
    language: client/names.py SCENARIO_TEXTS marks them, and `scenario_intro` translates them."""
    from dungeon_twister.client.names import KNOWN_SETS, SCENARIO_TEXTS, scenario_intro
    from dungeon_twister.engine import Options, new_game, view
    from dungeon_twister.engine.boardgame.catalogue import load

    texts = {scenario[key] for name in KNOWN_SETS for scenario in load(name).scenarios.values()
             for key in ("title", "goal", "rules_text")}
    assert len(texts) == 15 and not texts - set(SCENARIO_TEXTS)
    i18n.use("it")
    lines = scenario_intro(view(new_game(Options(set_name="prison", scenario="prison-2"), 1), "B"))
    assert lines[0] == "scenario prison-2: Obiettivo: il Colosso"
    assert "Colossus" not in " ".join(lines) and "Colosso" in lines[1]


def test_RUL_056_the_card_games_assassin_is_not_prisons_meuchlerin_in_german():
    """RUL-056: Prison's Assassin (backstab, lock-pick; German Meuchlerin) and the Card Game's Assassin (a won combat
    eliminates, CG-CHAR-ASSASSIN-01) are two characters with one English name; the Card Game's Backstabber has the
    Meuchlerin's powers. German showed "Meuchlerin" for the Card Game's Assassin too: it has a name of its own now
    (a catalogue entry in the context "card game"), and the board game's stays."""
    from dungeon_twister.client.help import help_text
    from dungeon_twister.client.names import kind_name, token_name

    i18n.use("de")
    assert (kind_name("AS", "prison"), kind_name("AS", cards=True), kind_name("BK", cards=True)) == (
        "Meuchlerin", "Assassine", "Verräterin")
    assert "Assassine" in token_name("bAS", cards=True) and "Meuchlerin" in token_name("bAS", "prison")
    assert help_text("AS", game="cards").startswith("Assassine (AS), Kartenspiel")
    i18n.use("en")
    assert kind_name("AS", cards=True) == kind_name("AS", "prison") == "Assassin"


def test_PD_CHAR_ILLUS_01_an_illusions_kind_is_translated_in_the_log_and_look():
    """Play-test in Italian: "Illusionista (blu) crea un'illusione pit su c5": the kind came as the event names
    it. Pit and rubble are now words of the catalogue (the Italian rulebook's macerie), in brackets after the
    noun (play-test 20: Spanish read "ilusión foso de Amarillo")."""
    from dungeon_twister.client.describe import describe_event, describe_square

    i18n.use("it")
    assert describe_event({"kind": "illusion", "by": "bIL", "illusion": "rubble", "square": "c14"}) == (
        "Illusionista (Blu) crea un'illusione (macerie) su c14")
    line = describe_event({"kind": "illusion_removed", "by": "bIL", "illusion": "pit", "square": "c5"})
    assert "fosso" in line and "pit" not in line
    assert "macerie" in describe_square({"illusions": [["c14", "Y", "rubble"]], "tokens": []}, "c14")
    i18n.use("es")
    assert "ilusión (foso) de Amarillo" in describe_square({"illusions": [["d19", "Y", "pit"]], "tokens": []}, "d19")


# --- the client in French, end to end -------------------------------------------------------------------------
def test_the_game_screen_speaks_french_and_the_notation_stays_as_typed():
    """The whole UI (prompt_toolkit, a VT100 terminal) at a table: the refusal's frame, the panel and the board's
    captions in French; the action as typed, the rule ID and the server's own sentence as they are."""
    from dungeon_twister.protocol import ActionRefused
    from tests.engine.builders import position_text
    from test_client_prompt import WiredSession, screen

    i18n.use("fr")
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.act("move bWA c6")
    [action] = wired.sent()
    wired.deliver(ActionRefused(action.action_id, "illegal_action", "yTR stands on c6", rule="BG-MOVE-09"))
    text = screen(wired.session).replace("\xa0", " ")  # the catalogue's no-break spaces (French colons) or spaces
    assert "refusé [BG-MOVE-09] : 'move bWA c6' : yTR stands on c6" in text
    assert "Bleu" in text and "Jaune" in text, "the seats by their French colours"
    assert "À VOUS DE JOUER" in text, "the turn's flash"
    assert "refused" not in text and "Blue" not in text and "YOUR TURN" not in text


def test_BG_MOVE_05_a_refusal_sent_as_a_template_speaks_french_when_the_catalogue_has_it():
    """BG-MOVE-05 refused by the server with its template and values (action_refused.template/values): the screen
    shows the French sentence with the squares as they are; a template the French catalogue does not translate (a
    refusal a newer server added, or one not translated yet) shows the server's English message, as a client that
    knows nothing of templates does."""
    from dungeon_twister.protocol import ActionRefused
    from tests.engine.builders import position_text
    from test_client_prompt import WiredSession, screen

    i18n.use("fr")
    wired = WiredSession()
    wired.seat(position_text("bWA@b13 yTR@e13"))
    wired.session.act("move bWA c13")
    [action] = wired.sent()
    wired.deliver(ActionRefused(action.action_id, "illegal_action",
                                "a wall or closed portcullis lies between b13 and c13", "BG-MOVE-05",
                                "a wall or closed portcullis lies between {here} and {there}",
                                {"here": "b13", "there": "c13"}))
    text = screen(wired.session).replace("\xa0", " ")
    assert "refusé [BG-MOVE-05] : 'move bWA c13' : un mur ou une herse fermée se trouve entre b13 et c13" in text
    assert "a wall" not in text
    wired.session.act("move bWA e13")
    [action] = wired.sent()
    unknown = "{square} is flooded"  # a refusal of a newer server
    assert i18n.translated(unknown) is None, "a template the catalogue does not have"
    wired.deliver(ActionRefused(action.action_id, "illegal_action", "e13 is flooded", "BG-MOVE-09", unknown,
                                {"square": "e13"}))
    text = screen(wired.session).replace("\xa0", " ")
    assert "refusé [BG-MOVE-09] : 'move bWA e13' : e13 is flooded" in text


@pytest.mark.parametrize(("template", "values"), [
    ("a wall or closed portcullis lies between {here} and {there}", {"here": "b13"}),  # a value missing
    ("a wall or closed portcullis lies between {here} and {there}", None),
    ("a template no catalogue has {here}", {"here": "b13"}),
    (None, {"here": "b13", "there": "c13"}),
])
def test_BG_MOVE_05_a_refusal_whose_template_cannot_be_shown_falls_back_to_the_message(template, values):
    """BG-MOVE-05: a translation the values do not fill, an unknown template, no template: the message, never a
    crash of the screen."""
    from dungeon_twister.client.state import Refusal

    i18n.use("fr")
    refusal = Refusal("move bWA c13", "illegal_action", "a wall or closed portcullis lies between b13 and c13",
                      "BG-MOVE-05", template, values)
    assert refusal.reason() == "a wall or closed portcullis lies between b13 and c13"
    assert refusal.describe().replace("\xa0", " ") == (
        "refusé [BG-MOVE-05] : 'move bWA c13' : a wall or closed portcullis lies between b13 and c13")


def test_a_typo_refused_by_the_server_speaks_french_with_the_text_as_typed():
    """Issue 11: a typo in an action (the room Z9 does not exist: rooms are A1..B4) goes through the server's own
    path (Game.resolve -> Refusal -> action_refused with the template and values of the parser's error) and is
    shown in French, the parser's sentence and where ("at column") each translated, the typed words as they are."""
    from dungeon_twister.engine import Options
    from dungeon_twister.protocol import ActionRefused
    from dungeon_twister.server.game import Game, Refusal
    from dungeon_twister.server.play import refused
    from tests.engine.builders import position_text
    from test_client_prompt import WiredSession, screen

    i18n.use("fr")
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.act("hide bRP Z9")
    [action] = wired.sent()
    with pytest.raises(Refusal) as caught:
        Game(Options(), 1).resolve("B", "hide bRP Z9")
    answer = refused(action.action_id, caught.value)
    assert isinstance(answer, ActionRefused) and answer.code == "bad_notation"
    assert answer.message == "expected a room like A1 or B4, got 'Z9' at column 10: 'hide bRP Z9'"
    assert answer.template.format(**answer.values) == answer.message
    wired.deliver(answer)
    text = screen(wired.session).replace("\xa0", " ")
    assert "refusé : 'hide bRP Z9' : salle attendue, comme A1 ou B4, reçu 'Z9'" in text
    assert "expected a room" not in text
    assert "colonne" not in text, "where, the typed text again: not shown after the text as typed (pt25b F4)"


def test_an_ambiguous_abbreviation_and_a_typo_without_a_column_speak_french():
    """ambiguous_action's template, and a parse error that says no column (an action too long, 256 characters
    at most: core/typed.py), translated; a parse error whose first part the catalogue lacks falls back to the
    English message whole (never half translated)."""
    from dungeon_twister.client.state import Refusal

    i18n.use("fr")
    ambiguous = Refusal("move", "ambiguous_action", "'move' matches 2 actions: move bTH c2, move bWA c3", None,
                        "{text} matches {count} actions: {candidates}",
                        {"text": "'move'", "count": 2, "candidates": "move bTH c2, move bWA c3"})
    assert ambiguous.reason().replace("\xa0", " ") == "'move' correspond à 2 actions : move bTH c2, move bWA c3"
    long = Refusal("x", "bad_notation", "an action is at most 256 characters long, not 300", None,
                   "an action is at most {limit} characters long, not {length}", {"limit": 256, "length": 300})
    assert long.reason() == "une action fait au plus 256 caractères, pas 300"
    newer = Refusal("fly", "bad_notation", "you cannot fly at column 1: 'fly'", None,
                    "you cannot {verb} at column {column}: {text}", {"verb": "fly", "column": 1, "text": "'fly'"})
    assert newer.reason() == "you cannot fly", "(where, the typed text again: left out, as `describe` shows it)"
    elsewhere = Refusal("fly", "bad_notation", "you cannot fly at column 4: 'go fly'", None,
                        "you cannot {verb} at column {column}: {text}", {"verb": "fly", "column": 4, "text": "'go fly'"})
    assert elsewhere.reason() == "you cannot fly at column 4: 'go fly'", "another text than typed: said whole"


def test_CG_SEL_FULL_01_a_typo_in_a_secret_build_is_explained_in_french():
    """The client parses a free build itself before committing it (secret_choice.resolve_choice): its parse error
    is translated the same way (CG-SEL-FULL-01: `build characters=... objects=...`)."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
    from dungeon_twister.engine.cards import new_game
    from dungeon_twister.engine.cards.select import parts
    from dungeon_twister.engine.cards.state import CardOptions

    i18n.use("fr")
    forms = [part.form() for part in parts(new_game(CardOptions(None, "standard", "full"), 1))]
    with pytest.raises(ChoiceError) as caught:
        resolve_choice("build characters=w4 objects=KY", [], "B", forms, "cards")  # (`wa` is read as WA)
    said = str(caught.value).replace("\xa0", " ")
    assert said.startswith("characters : des codes de 2 majuscules, séparés par des virgules à la colonne 1 : "
                           "'build characters=w4 objects=KY'"), said
    assert "codes of 2 capital letters" not in said


def test_a_mistyped_command_is_answered_in_french(capsys):
    from dungeon_twister.client.commands import Commands
    from test_client_prompt import WiredSession

    i18n.use("fr")
    wired = WiredSession()
    Commands(wired.session, lambda: None).run("craete prison")
    notice = wired.session.state.notice
    assert "'craete'" in notice and "'create'" in notice, "the words as typed, in the French sentence"
    assert notice != "unknown command 'craete': did you mean 'create'? (type help)"
    assert notice.startswith("commande inconnue")


def test_the_command_line_help_speaks_the_language_asked(capsys):
    with pytest.raises(SystemExit):
        app.main(["--lang", "de", "play", "--help"])
    german = capsys.readouterr().out
    assert i18n.language() == "de"
    with pytest.raises(SystemExit):
        app.main(["play", "--help"])  # no --lang: the locale's, English in the suite (tests/conftest.py)
    english = capsys.readouterr().out
    assert "usage: dt-client play" in english and "--bot {planner,greedy,random}" in english
    assert "--bot {planner,greedy,random}" in german, "the options as typed"
    assert "usage:" not in german and german.split()[0] != "usage:", "argparse's own words translated too"
    assert i18n.language() == "en"


def test_a_server_error_sent_as_a_template_speaks_the_readers_language():
    """docs/protocol.md section 7: the server's errors a person meets come with their sentence as a template and
    its values (a table that does not exist, a takeback refused): the client shows them in German, the table id
    as it is; the takeback's head and its reason are two templates, each translated; a template the catalogue
    does not have shows the server's English message."""
    from dungeon_twister.protocol import ProtocolError, templated
    from dungeon_twister.protocol.errors import TAKEBACK_HEAD
    from test_client_prompt import WiredSession

    i18n.use("de")
    wired = WiredSession()
    wired.session.receive(wired.server.send_error(templated("no_such_table", "there is no table {table}",
                                                            table="'t9'")))
    assert wired.session.state.notice == "Server: es gibt keinen Tisch 't9'"  # (no code: a sentence for people)
    wired.session.receive(wired.server.send_error(templated("not_allowed", TAKEBACK_HEAD + "it revealed a room")))
    assert wired.session.state.notice == (
        "Server: nichts von dir kann zurückgenommen werden: sie hat eine Halle aufgedeckt")
    wired.session.receive(wired.server.send_error(templated("not_allowed", "a newer server's {thing}",
                                                            thing="refusal")))
    assert wired.session.state.notice == "Server: a newer server's refusal"
    wired.session.receive(wired.server.send_error(ProtocolError("wrong_state", "resume is not handled here")))
    assert wired.session.state.notice == "Server: resume is not handled here (wrong_state)"  # no template: the code


def test_a_refused_hello_sent_as_a_template_speaks_the_readers_language():
    """docs/protocol.md section 3: refused.template/values, translated as error's are (here in Spanish)."""
    from dungeon_twister.protocol import Refused
    from test_client_prompt import refused_at_hello

    i18n.use("es")
    session = refused_at_hello(Refused("name_taken", "the name 'alice' is already used on this server",
                                       "the name {name} is already used on this server", {"name": "'alice'"}))
    assert session.state.notice.startswith(
        "el servidor nos rechazó: el nombre 'alice' ya se usa en este servidor (name_taken)")


def test_the_revealed_teams_follow_french_punctuation_too():
    """Seen by hand in French: "les équipes sont révélées : Bleu: Assassin, Clerc, Naga; Jaune: ..." (each side's
    part was put together in code, its colon English). It is a text of the catalogue now."""
    from dungeon_twister.client.describe import describe_event

    event = {"kind": "teams_revealed", "teams": {"B": {"b0": "bAS", "d0": "bCL"}, "Y": {"b11": "yCO"}}}
    assert describe_event(event) == "the teams are revealed: Blue: Assassin, Cleric; Yellow: Colossus"
    try:
        i18n.use("fr")
        line = describe_event(event)
    finally:
        i18n.use("en")
    assert "Bleu\u00a0: Assassin, Clerc" in line and "Jaune\u00a0: Colosse" in line and "Bleu:" not in line
    # review i18n27: the semicolon between the sides was put in code too ("Clerc; Jaune")
    assert "Clerc\u00a0; Jaune" in line


def test_the_panels_line_of_verbs_is_two_sentences_each_its_own_text(monkeypatch):
    """Review rv31b: the panel's "type end (Tab completes the rest)" and "type one of move, end (first letters,
    then Tab)" were the singular and plural of one ngettext entry. They are two different sentences, not one with
    a count (a language whose plural rule differs from English's would pick the wrong one, or translate them as
    forms of one text): each is its own msgid, chosen by the number of verbs, and is translated as such."""
    from dungeon_twister.client.games import screens
    from dungeon_twister.client.panel import _your_part
    from tests.engine.builders import position_text
    from test_client_prompt import WiredSession

    class Marked(gettext.NullTranslations):  # a catalogue that translates every gettext text, no plural form
        def gettext(self, message):
            return f"«{message}»"

    monkeypatch.setattr(i18n, "_translations", Marked())
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    state = wired.session.state
    for legal, line in ((["end"], "«type {verbs} (Tab completes the rest)»".format(verbs="end")),
                        (["move bWA c5", "end"], "«type one of {verbs} (first letters, then Tab)»".format(
                            verbs="move, end"))):
        state.view = {**state.view, "legal": legal}
        shown = "".join(text for _style, text, *_ in _your_part(state, state.view, screens(state.view).panel))
        assert line in shown, shown


def test_BG_MOVE_05_a_records_refusal_speaks_the_language_after_its_rule_id():
    """BG-MOVE-05 refused in a game record (`dt-client replay`, `verify`): the rule ID, then the French sentence,
    set apart as French sets a label apart, with a no-break space before the colon (play-test i18n32: a plain
    "BG-MOVE-05: ..." in the middle of French); English keeps "BG-MOVE-05: ..."."""
    from dungeon_twister.client.state import engine_error_text
    from dungeon_twister.engine import IllegalAction

    error = IllegalAction("BG-MOVE-05", "a wall or closed portcullis lies between {here} and {there}",
                          here="b13", there="c13")
    assert engine_error_text(error) == "BG-MOVE-05: a wall or closed portcullis lies between b13 and c13"
    i18n.use("fr")
    assert engine_error_text(error) == "BG-MOVE-05\xa0: un mur ou une herse fermée se trouve entre b13 et c13"
