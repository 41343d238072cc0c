"""Simultaneous secret choices (a free build, the starting team, combat cards) by commit-reveal (protocol
section 10).

The player types the choice like any action. We commit to its canonical text, reveal only once the opponent's
commitment has arrived, and let the connection verify the opponent's reveal: a mismatch raises an alert that
stays on screen.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

from dungeon_twister.engine import ChooseTeam, IllegalAction, NotationError, Part, parse_action
from dungeon_twister.engine.boardgame.geometry import square_of_name
from dungeon_twister.engine.boardgame.setup import team_refusal
from dungeon_twister.engine.core.typed import typed_text
from dungeon_twister.engine.families import FAMILIES
from dungeon_twister.protocol import (
    OpponentCommit,
    OpponentReveal,
    PlayerConnection,
    ProtocolError,
    RevealMismatch,
    make_nonce,
)

from .i18n import N_, _
from .names import other_seat, said, seat_name
from .ports import SessionPort as Session
from .state import Refusal, SecretChoice, notation_error_text, purpose_name, translated_template


class ChoiceError(ValueError):
    """The typed text names none, or more than one, of the choices allowed now; `rule`: the rule that forbids it,
    when a part of a build names one (the view's build.parts)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


def resolve_choice(text: str, legal: list[str], seat: str, parts: list[dict] | None = None,
                   game: str = "board", team: dict | None = None, scenario: bool = False,
                   named: int | None = None, hand: list[int] | None = None) -> str:
    """The canonical text of the one legal choice `text` names.

    Accepted: the canonical text, any notation the engine parses to it (`combat 3`, the team's squares in
    any order), or words matching one choice in order (`+3`, `team TH WA TR GB` in square order). A free build
    (`parts`: the view's build.parts) is checked against its parts: its notation in full, values in any order.
    `game`: the table's game, whose notation the text is in (engine.families). `team`: the view's compact team
    choice, if any (its squares, characters and how many are left out), and `scenario` whether the table plays a
    Prison scenario: a team that is none of the choices is refused with the rule it breaks, as the engine would.
    `named`: the value a Telepath named in this combat (the view's combat.mind.named), which the seat must play
    if its only choice is that card (PR-CHAR-TELEPATH-01), or if it holds that card (the card game's
    CG-CHAR-TELEPATH-01, told by `hand`: the seat's combat cards where the view shows them, its my_cards).
    """
    try:
        text = " ".join(typed_text(text).split())  # (full-width, as the server reads an action: review rv28)
    except NotationError as error:
        raise ChoiceError(notation_error_text(error)) from None
    text = _combat_card_words(text, legal)
    if parts is not None:
        return _resolve_build(text, parts, seat, game)
    if text in legal:
        return text
    typo: NotationError | None = None
    try:
        rules = FAMILIES[game]
        canonical = rules.format_action(rules.parse_action(text, seat))
    except NotationError as error:
        canonical, typo = None, error
    if canonical in legal:
        return canonical
    matches = [choice for choice in legal if _in_order(text.split(), choice.split())]
    if len(matches) == 1:
        return matches[0]
    if matches and typo is None:
        # well-formed but none of the choices (`hide bTR:1` where two are placed): the rule it breaks says more
        # than the choices it is the start of (a play-test read "matches 10 choices")
        problem = _choice_problem(text, legal, seat, FAMILIES[game], named, hand)
        if problem is not None:
            raise ChoiceError(translated_template(problem.template, problem.values) or problem.message, problem.rule)
    if matches and game == "board" and text.split()[0] == "team" and len(matches) > 1:
        # the short form naming too few characters (`team CL GB MK`), or a team smaller than the marked squares
        # (Prison's scenarios: 2 characters on 2 of 4 squares), read "it matches 20 choices" in play-test pl31
        problem = (_team_problem(text, seat, team, scenario) if team is not None
                   else _listed_team_problem(text, legal, seat, scenario))
        if problem is not None:
            raise ChoiceError(translated_template(problem.template, problem.values) or problem.message, problem.rule)
        # TRANSLATORS: a team typed without its squares matches several choices; SQUARE=CHARACTER is the notation's
        # form (b0=WA), typed as it is; {example} one of them
        raise ChoiceError(_("it matches {n} choices: name each character's square, SQUARE=CHARACTER, e.g. "
                            "{example}").format(n=len(matches), example=repr(matches[0])))
    if matches:
        raise ChoiceError(_("it matches {n} choices, e.g. {example}").format(n=len(matches), example=repr(matches[0])))
    problem = None
    if game == "board":
        problem = (_team_problem(text, seat, team, scenario) if team is not None
                   else _listed_team_problem(text, legal, seat, scenario))
    if problem is None and typo is None:
        problem = _choice_problem(text, legal, seat, FAMILIES[game], named, hand)
    if problem is not None:
        raise ChoiceError(translated_template(problem.template, problem.values) or problem.message, problem.rule)
    if typo is not None and text and text.split()[0] in {_verb(choice) for choice in legal}:
        raise ChoiceError(notation_error_text(typo))  # the choice's verb, words its notation refuses: say which
    if typo is not None and text.split():
        # a verb mistyped (`tema CL GB MK TH`): as in play (`mvoe`), the verb it is near (play-test pl31 F5)
        word, verbs = text.split()[0].lower(), sorted({_verb(choice) for choice in legal} - {""})
        near = get_close_matches(word, verbs, n=1)
        if near and near[0] != word:
            example = next(choice for choice in legal if _verb(choice) == near[0])
            # TRANSLATORS: a secret choice's verb mistyped; {word} as typed, {verb} the choice's verb (team, hide,
            # combat), {example} one of the choices, typed as it is
            raise ChoiceError(_("{word}: did you mean {verb}? e.g. {example}").format(
                word=text.split()[0], verb=near[0], example=repr(example)))
    if legal:
        raise ChoiceError(_("not one of your choices now, e.g. {example}").format(example=repr(legal[0])))
    raise ChoiceError(_("not one of your choices now"))


def _verb(choice: str) -> str:
    """A choice's first word; "" for a choice with none (a server's "", which was an IndexError: review rv33)."""
    words = choice.split(maxsplit=1)
    return words[0] if words else ""


_OTHER_GAMES_CARD = re.compile(r"(combat|card) \+?([0-9])", re.IGNORECASE)


def _combat_card_words(text: str, legal: list[str]) -> str:
    """A combat card typed in the other game's words, as the game at hand writes it: `combat +4` at a Card Game
    table, whose notation is `card 4`, and `card 4` in a board game's combat, where `card` plays an action card
    (play-test pl33 played a Prison game, then a Card Game, typed `combat +4` there and read "not one of your
    choices now, e.g. 'card 0'"). Only where every choice is a combat card; any other text is left as typed."""
    match = _OTHER_GAMES_CARD.fullmatch(text)
    words = [choice.split() for choice in legal]  # (a server's empty choice, "", was an IndexError: review rv33)
    if match is None or not words or not all(len(split) > 1 for split in words):
        return text
    verbs = {split[0] for split in words}
    if len(verbs) != 1:
        return text
    value = match.group(2)
    if verbs == {"card"} and all(split[1].lstrip("+").isdigit() for split in words):
        return f"card {value}"
    if verbs == {"combat"}:
        return f"combat +{value}"
    return text


MAX_EXPLAINED = 4096
"""The most choices parsed to say why a choice is none of them (a start placement: tens; a team: 1,680)."""


def _choice_problem(text: str, legal: list[str], seat: str, rules, named: int | None = None,
                    hand: list[int] | None = None) -> IllegalAction | None:
    """Why the well-formed choice `text` breaks the rules, as the family's `choice_refusal` finds it from the legal
    choices (the card game's start placement and facings), or None when they do not tell."""
    if not legal or len(legal) > MAX_EXPLAINED:
        return None
    try:
        action = rules.parse_action(text, seat)
        choices = [rules.parse_action(choice, seat) for choice in legal]
    except NotationError:
        return None
    return rules.choice_refusal(action, choices, named, hand)


def _listed_team_problem(text: str, legal: list[str], seat: str, scenario: bool) -> IllegalAction | None:
    """Why the team `text` is none of the team choices `legal`, sent as a list (a Prison scenario's team of fewer
    characters than marked squares has no compact form), as setup.team_refusal says from what the list shows: its
    marked squares, the seat's characters, the team's size and how many are left out; None when `text` or the list
    is no team choice. (A play-test typed two characters on one square and read "not one of your choices now".)"""
    if not legal or len(legal) > MAX_EXPLAINED or not legal[0].startswith("team "):
        return None
    try:
        action = parse_action(text, seat)
        choices = [parse_action(choice, seat) for choice in legal]
    except NotationError:
        return None
    if not isinstance(action, ChooseTeam) or not all(isinstance(choice, ChooseTeam) for choice in choices):
        return None
    marked = sorted({square for choice in choices for square, _ in choice.team})
    characters = sorted({code for choice in choices for code in (*(code for _, code in choice.team), *choice.removed)})
    return team_refusal(action, len(choices[0].team), marked, characters, len(choices[0].removed), scenario)


def _team_problem(text: str, seat: str, form: dict, scenario: bool) -> IllegalAction | None:
    """Why the team `text` names breaks the rules (setup.team_refusal with what the compact form tells: its squares
    are the marked ones, its characters the seat's, `out` how many to leave out), or None when the text is no team
    at all. The notation (`team b0=WA ...`) or the short form (`team WA TH TR GB [out=GO]`: the characters on the
    squares in their order)."""
    try:
        squares = [square_of_name(name) for name in form["squares"]]
        characters, out = list(form["characters"]), int(form.get("out") or 0)
    except (KeyError, TypeError, ValueError):
        return None
    if not squares or None in squares:
        return None
    try:
        action = parse_action(text, seat)
    except NotationError:
        words = text.split()
        if len(words) < 2 or words[0] != "team" or any("=" in word and not word.startswith("out=")
                                                         for word in words[1:]):
            return None
        removed = tuple(words.pop()[4:].upper().split(",")) if words[-1].startswith("out=") else ()
        codes = [code.upper() for code in words[1:]]  # (codes in any case, as the notation reads them)
        # the characters on the squares in order; one too many would stand on the last square again
        places = squares + squares[-1:] * max(0, len(codes) - len(squares))
        action = ChooseTeam(seat, tuple(zip(places, codes)), removed)
    if not isinstance(action, ChooseTeam):
        return None
    return team_refusal(action, len(squares), squares, characters, out, scenario)


def joined_lists(text: str) -> str:
    """A build's text with the spaces beside its lists' commas taken out (`build pairs=2, 42 ...` ->
    `pairs=2,42`): a comma is only ever inside a list, and a word with no `=` is no field, so the word after (or
    before) a comma is the list's next item. A play-test (pl31) typed the space and was told "expected a room pair
    number in pairs=, got '' at column 7". A list whose items are parted by spaces only (`pairs=2 42`) is left to
    the engine's notation to refuse ("a list has no spaces")."""
    words: list[str] = []
    for word in text.split():
        if words and "=" not in word and (words[-1].endswith(",") or word.startswith(",")) and "=" in words[-1]:
            words[-1] += word
        else:
            words.append(word)
    return " ".join(words)


def _resolve_build(text: str, parts: list[dict], seat: str, game: str = "board") -> str:
    rules = FAMILIES[game]
    try:
        action = rules.parse_action(joined_lists(text), seat)
    except NotationError as error:
        # TRANSLATORS: {error} says what is wrong with the typed text; {form} is the build's notation, kept as typed.
        raise ChoiceError(_("{error} ({form}; Tab completes)").format(error=notation_error_text(error),
                                                                       form=_build_form(parts))) from None
    if type(action) is not rules.secret_kind("build"):
        raise ChoiceError(_("build your team first: {form} (Tab completes)").format(form=_build_form(parts)))
    for form in parts:  # each part as the engine checks it, with the rule it cites (protocol.md, the free build)
        part = Part.from_form(form)
        why = part.refusal([str(value) for value in getattr(action, form["name"], ())])
        if why is not None:  # in the reader's language when the catalogue has the part's sentence
            template, values = why
            raise ChoiceError(translated_template(template, values) or template.format(**values),
                              part.refusal_rule(template))
    return rules.format_action(action)


def _build_form(parts: list[dict]) -> str:
    """`build pairs=... characters=... objects=...`: the form of a build of these parts."""
    return "build " + " ".join(f"{part['name']}=..." for part in parts)


def _in_order(words: list[str], canonical: list[str]) -> bool:
    remaining = iter(canonical)
    return bool(words) and all(any(_same(word, c) for c in remaining) for word in words)


def _same(word: str, canonical: str) -> bool:
    if word == canonical or word.lstrip("+") == canonical.lstrip("+"):
        return True
    # a team's short form names the characters in any case (`team th wa tr gb`), as the notation reads codes
    return "=" in canonical and word.upper() == canonical.split("=", 1)[1]


def choose(session: Session, text: str) -> None:
    """Commit to the choice `text` names for the pending purpose."""
    state = session.state
    purpose = state.secret_purpose
    if purpose in state.secrets:
        state.say(_("you have already chosen: {choice}").format(choice=state.secrets[purpose].describe()))
        return
    connection = session.connection
    if not isinstance(connection, PlayerConnection) or state.seat is None or not state.connected:
        state.say(_("not connected as a player"))
        state.not_sent(text)
        return
    try:
        view = state.view or {}
        game = view.get("game", "board")
        named = ((view.get("combat") or {}).get("mind") or {}).get("named")
        hand = view.get("my_cards")  # (the card game's; the board game's refusal needs no hand)
        choice = resolve_choice(text, state.legal, state.seat, state.build_parts, game, view.get("team_choice"),
                                bool(view.get("scenario")), named if isinstance(named, int) else None,
                                hand if isinstance(hand, list) and all(isinstance(v, int) for v in hand) else None)
    except ChoiceError as error:
        state.refusal = Refusal(text, "not_a_choice", str(error), error.rule)
        return
    nonce = make_nonce()
    session.keep_secret(purpose, choice, nonce)  # on disk before the commitment leaves: a crash can still reveal
    try:
        frame = connection.commit(purpose, choice, nonce)
    except ProtocolError as error:
        state.say(_("cannot commit now: {error}").format(error=error.message))
        return
    session.write(frame)
    # our clock stops with our commitment (server/deadlines.py: the turn's pauses, a card's is met); a deadline
    # that starts for the reveal comes as a new `timer`
    state.timers.pop(state.seat, None)
    round_ = state.secrets[purpose] = SecretChoice(purpose, choice, opponent_remade=purpose in state.opponent_remade)
    state.say(round_.describe())
    if purpose in session.early_commits:
        _reveal(session, round_)


def on_opponent_commit(session: Session, message: OpponentCommit) -> None:
    session.keep_opponent_commitment(message.purpose, message.commitment)  # to check his reveal after a crash
    session.state.opponent_committed.add(message.purpose)
    session.state.timers.pop(message.seat, None)  # his clock stops with his commitment, as ours does
    round_ = session.state.secrets.get(message.purpose)
    if round_ is None:
        session.early_commits.add(message.purpose)
        _opponent_chose(session, message.seat, message.purpose)
        return
    _reveal(session, round_)


def on_view(session: Session, before: dict | None, view: dict | None) -> None:
    """A view whose `table.committed` (docs/protocol.md section 20) newly names the opponent, for the secret choice
    we have still to make: he has chosen (a play-test's player waited, not knowing, on an opponent long done). And
    the message bar's line of a round the game has gone on from stops saying that it waits."""
    state = session.state
    purpose = (view or {}).get("secret")
    for round_ in state.secrets.values():  # a round the game went on from: its line no longer says "waiting"
        if round_.purpose != purpose and state.notice == round_.describe():
            state.notice = round_.describe(pending=False)  # (a play-test saw "hide: ... revealed; waiting for the
            # opponent's reveal" stay while the rooms were seeded: that reveal comes when the teams are shown)
    if state.seat is None or purpose is None:
        return
    if purpose in state.secrets:
        return commit_again_if_lost(session, view)
    if purpose != (before or {}).get("secret"):  # a choice of ours begins: the bar's last message is of before
        state.say("")  # (a play-test's bar still said his chat line was cut when he was attacked; the panel asks)
    other = other_seat(state.seat)
    if other in _committed(view) and other not in _committed(before):
        _opponent_chose(session, other, purpose)


def on_snapshot(session: Session, view: dict | None) -> None:
    """A snapshot (a resume, a join): a secret choice of ours the opponent has already made is said again, so that
    one coming back, after a server's restart above all (a fresh 5 seconds for a combat card, DT-090), reads
    what is asked of him now, not only the panel's clock (play-test pt25b: the line of before the restart was all
    his log had)."""
    state = session.state
    purpose = (view or {}).get("secret")
    if state.seat is None or purpose is None or purpose in state.secrets:
        return
    other = other_seat(state.seat)
    if other in _committed(view):
        _opponent_chose(session, other, purpose)


def commit_again_if_lost(session: Session, view: dict | None) -> None:
    """A view (or a snapshot) of the round we have chosen in that does not name us among the seats committed: the
    server does not have our commitment, its store went back (a backup restored): sent again (commit_again). A
    view made before our commitment arrived says the same: the commitment sent again is refused commit_twice,
    which the session expects, once a connection."""
    state = session.state
    purpose = (view or {}).get("secret")
    if state.seat is None or purpose not in state.secrets or state.seat in _committed(view):
        return
    round_ = state.secrets[purpose]
    if session.commit_again(purpose):
        round_.revealed = False
        state.say(round_.describe())


def _committed(view: dict | None) -> list:
    committed = ((view or {}).get("table") or {}).get("committed")
    return committed if isinstance(committed, list) else []


def _opponent_chose(session: Session, seat: str, purpose: str) -> None:
    """The notice and log line that the opponent has made the secret choice we have still to make."""
    timed = bool(((session.state.view or {}).get("table") or {}).get("timers"))
    if timed and purpose.startswith("combat"):
        # TRANSLATORS: {purpose}: the combat's secret choice, in words (the card for combat 2); the 5 seconds
        # are the rule BG-OPT-04 of a table with timers
        template = N_("{seat} has laid his combat card ({purpose}): lay yours within 5 seconds, or +0 is laid "
                      "for you")
    else:
        # TRANSLATORS: {purpose} is the secret choice, in words (the starting team, the card for combat 2)
        template = N_("{seat} has made his secret choice ({purpose}); make yours")
    notice = said(template, seat=seat, purpose=purpose)
    if session.state.refusal is None:
        session.state.say(notice)
        # the game moving on takes it away (a play-test saw "lay yours within 5 seconds" stay after the +0 was laid)
        session.state.event_notice = notice
    # (else the refusal of the line just typed stays in the bar, which answers the last line typed: a play-test's
    # wrong choice was refused and, a moment later, the opponent's notice wiped out why; the log says it)
    session.state.log.append(notice)


def _reveal(session: Session, round_: SecretChoice) -> None:
    connection = session.connection
    assert isinstance(connection, PlayerConnection)
    try:
        session.write(connection.reveal(round_.purpose))
    except ProtocolError as error:
        session.state.say(_("cannot reveal {purpose}: {error}").format(purpose=purpose_name(round_.purpose),
                                                                       error=error.message))
        return
    round_.revealed = True
    session.state.say(round_.describe())


def on_opponent_reveal(session: Session, message: OpponentReveal) -> None:
    """The connection has checked this reveal against the opponent's commitment (a mismatch comes separately)."""
    round_ = session.state.secrets.get(message.purpose)
    if round_ is not None:
        round_.opponent_choice = message.choice
        session.state.say(round_.describe())
    if _timed_out(session.state.log, message.seat, message.purpose):
        # (the server committed for a seat whose time ran out, docs/protocol.md section 13: "his commitment" read
        # as the player's own in play-test pt24, F10)
        template = N_("{seat}'s choice for {purpose} is shown: {choice}, the one the server made for that seat "
                      "when its time ran out (checked)")
    else:
        template = N_("{seat}'s choice for {purpose} is shown: {choice}, the one he made before he saw yours "
                      "(checked)")
    line = said(template, seat=message.seat, choice=repr(message.choice), purpose=message.purpose)
    shown_by = FAMILIES[(session.state.view or {}).get("game", "board")].reveal_after.get(message.purpose)
    if shown_by is not None:
        # forwarded once its step showed it, after that step's view (docs/protocol.md, secret choices): right after
        # the line of the event that showed it (play-test pt23 read the team's check after the bot's whole first
        # turn, pt23b after "turn 1: Blue plays", which the same step begins)
        _after_line_of(session.state.log, shown_by, line)
    else:  # (a combat's reveals come ahead of its step's events)
        session.log_after(line)


def _timed_out(log, seat: str, purpose: str) -> bool:
    """Whether the log tells that `seat`'s time ran out for `purpose` (its `timeout` event)."""
    return any(isinstance(event := getattr(line, "event", None), dict) and event.get("kind") == "timeout"
               and event.get("seat") == seat and event.get("purpose") == purpose for line in log)


def _after_line_of(log, kind: str, line: str) -> None:
    """Put `line` into the log right after the last line that tells an event of `kind` (held.Told), else last."""
    at = next((index for index in range(len(log) - 1, -1, -1)
               if getattr(log[index], "event", {}).get("kind") == kind), None)
    if at is None or len(log) == log.maxlen:  # (a full deque takes no insertion)
        log.append(line)
    else:
        log.insert(at + 1, line)


def on_mismatch(session: Session, mismatch: RevealMismatch) -> None:
    alert = _("CHEATING DETECTED: {seat}'s reveal {choice} for {purpose} does not open the commitment the server "
              "forwarded. Do not trust this game.").format(seat=seat_name(mismatch.seat), choice=repr(mismatch.choice),
                                                          purpose=purpose_name(mismatch.purpose))
    session.state.alert = alert
    session.state.log.append(alert)
