"""The engine game of one table: its state, its record, and turning players' text into applied actions."""

from __future__ import annotations

from collections.abc import Mapping

from dungeon_twister.engine import Action, AmbiguousAction, Event, IllegalAction, NotationError
from dungeon_twister.engine.core.errors import N_
from dungeon_twister.engine.core.listing import LegalTable
from dungeon_twister.engine.families import Family, family_for

from .records import GameRecord


class Refusal(Exception):
    """An action or choice the server does not apply; `code` is an action_refused code. `template` and `values`,
    when known, are `message` as an English str.format template and its values (action_refused.template/values):
    the engine's (IllegalAction, NotationError, AmbiguousAction), or the server's own (`server_refusal`)."""

    def __init__(self, code: str, message: str, rule: str | None = None, template: str | None = None,
                 values: dict | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule
        self.template, self.values = template, values

    @classmethod
    def illegal(cls, error: IllegalAction) -> Refusal:
        """The engine's refusal, with its rule, template and values."""
        return cls("illegal_action", error.message, error.rule, error.template, error.values)

    @classmethod
    def notation(cls, error: NotationError) -> Refusal:
        """A parse error (bad_notation), as its whole template and values: the parser's template followed, when
        it says where, by " at column {column}: {text}" (NotationError.full_template; a client translates the two
        parts, docs/protocol.md)."""
        return cls("bad_notation", str(error), None, error.full_template, error.full_values)

    @classmethod
    def ambiguous(cls, error: AmbiguousAction) -> Refusal:
        """An abbreviation that matches several actions (ambiguous_action), with its template and values."""
        return cls("ambiguous_action", str(error), None, error.template, error.values)


def server_refusal(code: str, template: str, rule: str | None = None, **values: str | int) -> Refusal:
    """A refusal of the server's own, given as its English template (marked for the client's catalogue: Babel
    keyword `server_refusal:2`) and the values, which are notation or numbers, the same in every language."""
    return Refusal(code, template.format(**values), rule, template, values)


class Game:
    """`options`: the engine options of the table's rule family (engine.families), which the game then goes
    through for every rule: the board game's Options or the card game's CardOptions."""

    def __init__(self, options, seed: int) -> None:
        self.family: Family = family_for(options)
        self.state = self.family.new_game(options, seed)
        self.record = GameRecord(seed, options, self.family)
        self._legal: dict[str, Mapping[str, Action]] = {}
        """seat -> {canonical text: the generated action} in the current state (cleared when it changes)."""
        self.undo: tuple | None = None
        """(the state before, the seat, the record line) of the last action when it may be taken back (DT-224);
        None after any other."""
        self.undo_refusal: tuple[str, dict] | None = (N_("no action yet"), {})
        """Why the last action may not be taken back (when `undo` is None): an English template and its values."""
        self.last_seat: str | None = None
        """Whose the last action was."""
        self.last_secret = False
        """Whether the last action was a secret choice (a combat card, a team...: never taken back, DT-224)."""

    def legal(self, state, seat: str) -> list[str]:
        """The seat's legal action texts in `state`, cached for the current state."""
        if state is not self.state:
            return list(generated(self.family, state, seat))
        return list(self.actions(seat))

    def actions(self, seat: str) -> Mapping[str, Action]:
        """{canonical text: action} of the seat's legal actions in the current state ({} if it is not to act).

        Not kept for a secret choice (the team choice lists 1,680 teams, for as long as a player thinks): it
        comes as a commit-reveal, checked once by `choice`."""
        known = self._legal.get(seat)
        if known is None:
            known = generated(self.family, self.state, seat)
            if self.family.secret_purpose(self.state, seat) is None:
                self._legal[seat] = known
        return known

    def pack(self) -> None:
        """The game waits on its players: what it keeps for their next action is kept compact (the engine's memo,
        `Family.pack`; the legal tables' texts, `LegalTable.pack`). Nothing any call gives changes. Called once a
        step's frames are written (`Table.after_step`), so that no frame waits for it."""
        self.family.pack(self.state)
        for table in self._legal.values():
            if isinstance(table, LegalTable):
                table.pack()

    def listed(self, seat: str, text: str) -> bool:
        """Whether `text` is one of the canonical texts listed for the seat in the current state."""
        return text in self.actions(seat)

    def resolve(self, seat: str, text: str) -> Action:
        """The action a player typed: canonical notation or an unambiguous abbreviation. A text the server
        listed as legal is the action it generated (no parsing, no search)."""
        action = self.actions(seat).get(text)
        if action is not None:
            return action
        try:
            return self.family.resolve_input(self.state, seat, text)
        except AmbiguousAction as error:
            raise Refusal.ambiguous(error) from None
        except NotationError as error:
            raise Refusal.notation(error) from None
        except IllegalAction as error:
            raise Refusal.illegal(error) from None

    def apply(self, action: Action, meta: dict | None = None, text: str | None = None) -> tuple[Event, ...]:
        """Apply and record a legal action (`meta`: see GameRecord.action; `text`: its canonical text, if known);
        Refusal illegal_action (with the rule) otherwise."""
        before = self.state
        try:
            self.state, events = self.family.apply(self.state, action)
        except IllegalAction as error:
            raise Refusal.illegal(error) from None
        self._legal.clear()
        self.record.action(action, meta, text)
        self.last_seat = action.seat
        self.last_secret = isinstance(action, (self.family.combat_card, *self.family.secret_kinds.values()))
        self.undo_refusal = self.family.takeback_refusal(self.state, events)
        self.undo = None if self.undo_refusal else (before, action.seat, self.record.last)
        return events

    def take_back(self) -> str:
        """Go back to the state before the last action (which `undo` allows); its record line."""
        before, _, line = self.undo
        self.state, self.undo, self.undo_refusal = before, None, (N_("it was taken back already"), {})
        self._legal.clear()
        return line

    def choice(self, seat: str, purpose: str, text: str, legacy: bool = False) -> Action:
        """The action of a revealed secret choice, checked against the state without applying it. `legacy`: the
        choice was committed before a restart (recovery.py): one the rules refuse is read as the family's older
        notation meant it, when that reading applies (`Family.legacy_action`, DT-271)."""
        try:
            action = self.family.parse_action(text, seat)
        except NotationError as error:
            raise Refusal.notation(error) from None
        if type(action) is not self.family.secret_kind(purpose):
            raise server_refusal("illegal_action", "{text} is not a choice for {purpose}", text=repr(text),
                                 purpose=repr(purpose))
        try:
            self.family.apply(self.state, action)
        except IllegalAction as error:
            converted = self.family.legacy_action(self.state, action) if legacy else None
            if converted is not None and self._applies(converted):
                return converted
            raise Refusal.illegal(error) from None
        return action

    def _applies(self, action: Action) -> bool:
        try:
            self.family.apply(self.state, action)
        except IllegalAction:
            return False
        return True


def generated(family: Family, state, seat: str) -> Mapping[str, Action]:
    """{canonical text: action} of the seat's legal actions ({} when it is not to act or the game is over, and
    for a free team building, whose 10^10 builds the view describes as parts: view["build"]["parts"])."""
    if state.outcome is not None or seat not in state.to_act:
        return {}
    return family.legal_table(state, seat)
