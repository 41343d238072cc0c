"""The working copy an action is applied to: a thawed state, its board, and the events produced."""

from __future__ import annotations

from .board import Board, board_of
from ..core.errors import N_, IllegalAction
from ..core.events import Event, event_of
from .geometry import Square, square_name
from .golden import square_ok, square_problem
from .state import GameState, Token, opponent, seal_working, working_copy


INTERNED = 4096
"""How many token values `_intern` keeps (the oldest first out): under 1 MB."""

_interned: dict[Token, Token] = {}


def _intern(token: Token) -> Token:
    """One object for equal token values, while the value is among the last INTERNED put: a token moved back
    where it was is the very object it was, so memos keyed on token identity (`moves._key`) find it again."""
    found = _interned.get(token)
    if found is None:
        if len(_interned) >= INTERNED:
            del _interned[next(iter(_interned))]
        found = _interned[token] = token
    return found


DELTA_KEPT = 64
"""How many changed squares a state's `_delta` lists at most (beyond, its occupancy is made from its tokens)."""


def _delta(before: GameState, touched: list[Square], changed: list[str]) -> tuple | None:
    """The `_delta` of the state an action makes from `before`, whose tokens changed on the squares `touched` (the
    ids `changed`): against the occupancy of `before` when the game's memo holds it (`movement.occupancy`), else
    against the one `before`'s own delta is against, the changes added (positions without an occupancy: a phase
    with no moves, such as the action card between two turns). None if no occupancy is known (the occupancy is
    then made from the tokens, as it is when a token was added: `sealed` gives no delta then)."""
    memo = before._memo
    if memo is None or memo.occ is None or not memo.occ.sealed:
        return None
    last = memo.state
    if last is not None and last() is before:
        return memo.occ.serial, touched, changed
    known = before._delta
    if known is None or known[0] != memo.occ.serial or len(known[1]) + len(touched) > DELTA_KEPT:
        return None
    return known[0], known[1] + touched, known[2] + changed


class Ctx:
    def __init__(self, state: GameState):
        self.before = state  # the state the action applies to (never changed)
        self.s = working_copy(state)  # `thaw`'s copy, faster to change (`state._Thawing`) until `sealed`
        self.events: list[Event] = []
        self._board: Board | None = None
        self.touched: list[Square] = []  # the squares a token `put` changed left or lies on (`check_golden_rules`)
        self.changed: list[str] = []  # the ids of the tokens `put` changed (`sealed`: the state's `_delta`)
        self._checked: tuple | None = None  # (pits, len(touched)) once the golden rules held
        self.turned: set[str] = set()  # the ids of the tokens a room's rotation turned with it (BG-ROT-05)

    # --- board -------------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        if self._board is None:
            if self._same_layout():
                self._board = board_of(self.before)
            else:  # a room turned, a portcullis opened...: the board before tells the new one what it shares
                self._board = board_of(self.s, self.before._board)
        return self._board

    def _same_layout(self) -> bool:
        """Whether the working copy's layout fields (everything `board_of`'s key is made of) equal the state's."""
        s, before = self.s, self.before
        return (s.rooms is before.rooms and s.rows == before.rows and s.portcullis == before.portcullis
                and s.marks == before.marks and s.options is before.options)

    def sealed(self) -> GameState:
        """The working copy sealed (`apply`'s result), with the board of `before` when it has the same layout:
        `board_of` would look that very key up again (hashing every room place), so the new state starts with it."""
        s = self.s
        board = self.before._board  # set only on a sealed state whose board was asked for
        same = board is not None and self._same_layout()
        seal_working(s)  # `seal(owned=True)`: thaw() copied its dicts; nothing else holds them
        if same:
            object.__setattr__(s, "_board", board)  # `board_of`'s memo slot of a sealed state
        if self._checked is not None and self._checked[1] == len(self.touched):  # no token changed since (hooks)
            object.__setattr__(s, "_checked_pits", self._checked[0])
        delta = _delta(self.before, self.touched, self.changed) if len(s.tokens) == len(self.before.tokens) else None
        if delta is not None:
            object.__setattr__(s, "_delta", delta)
        return s

    def layout_changed(self) -> None:
        self._board = None

    # --- tokens ------------------------------------------------------------------------------------
    def token(self, token_id: str) -> Token:
        try:
            return self.s.tokens[token_id]
        except KeyError:
            raise IllegalAction("BG-COMP-04", "there is no token {token}", token=token_id) from None

    def put(self, token: Token) -> None:
        if token.where != "board" and (token.wounded or token.wounded_turn >= 0):
            # off the board a token has no wound state: the position notation cannot state one, so a state that
            # kept it would not survive format_position/parse_position (eliminated wounded, exited after healing)
            token = token.moved(wounded=False, wounded_turn=-1)
        tokens = self.s.tokens
        old = tokens.get(token.id)
        if old != token:  # an unchanged token stays the same object (`moves._key`)
            # every change of a token goes through here: the golden rules look again at these squares only
            if old is not None and old.where == "board":
                self.touched.append(old.square)
            if token.where == "board":
                self.touched.append(token.square)
            self.changed.append(token.id)
            tokens[token.id] = _intern(token)

    def at(self, square: Square) -> list[Token]:
        return [t for t in self.s.tokens.values() if t.where == "board" and t.square == square]

    def figure_at(self, square: Square) -> Token | None:
        return next((t for t in self.at(square) if t.is_figure), None)

    def carried(self, figure: Token) -> Token | None:
        """What a figure carries: the other token on its square (RUL-119)."""
        return next((t for t in self.at(figure.square) if t.id != figure.id and not t.is_figure), None)

    def rope_on(self, square: Square) -> bool:
        return any(not t.is_character and self.s.catalogue.objects[t.code].rope for t in self.at(square))

    def has_ability(self, token: Token, ability: str) -> bool:
        kind = self.s.catalogue.characters.get(token.code)
        return bool(kind) and ability in kind.abilities

    def emit(self, kind: str, **data) -> None:
        self.events.append(event_of(kind, data))  # `data`: this call's own keyword dict

    # --- who may act -------------------------------------------------------------------------------
    def actor(self, seat: str, token_id: str, rule: str = "BG-AP-02", wounded_rule: str = "BG-AP-02") -> Token:
        """The figure of the active player that will spend 1 AP, checked and paid for (BG-AP-01/02).

        `rule` is cited if the token is not his character in play, `wounded_rule` if it is wounded."""
        if self.s.phase != "main":
            self.pending()
            raise IllegalAction("BG-TURN-01", self._phase_message())
        if seat != self.s.active:
            raise IllegalAction("BG-TURN-01", "it is not your turn")
        token = self.token(token_id)
        marks = self.s.marks
        controlled = bool(marks) and f"control:{seat}:{token_id}" in marks  # charmed this turn (PD-OBJ-CHARM-02)
        if (token.colour != seat and not controlled) or not token.is_character:
            raise IllegalAction(rule, "{token} is not one of your characters", token=token_id)
        if token.where != "board":
            raise IllegalAction(rule, "{token} is not in play", token=token_id)
        if token.wounded:
            raise IllegalAction(wounded_rule, "{token} is wounded and cannot act", token=token_id)
        refused = self.exhausted_refusal(token)
        if refused is not None:
            raise refused
        self.spend(token_id)
        return token

    def pending(self) -> None:
        """BG-GOLD-01: a pending combat or placement finishes its action before any other starts (whoever asks:
        the turn's player, whose turn it still is, or the other)."""
        if self.s.phase in ("combat", "place"):
            raise IllegalAction("BG-GOLD-01", self._phase_message())

    def exhausted_refusal(self, token: Token) -> IllegalAction | None:
        """Why a figure healed or regenerated this turn may not act (BG-CHAR-CLERIC-02, BG-CHAR-TROLL-03), if it
        was; being drawn into a combat is no action of its own (RUL-014), joining one is (DT-105)."""
        if token.id not in self.s.exhausted:
            return None
        # a Troll who acted this turn and was not wounded in it regenerated (a wounded one acts in no other way)
        if self.has_ability(token, "regenerate") and token.id in self.s.acted and token.wounded_turn != self.s.turn:
            return IllegalAction("BG-CHAR-TROLL-03", "{token} was regenerated this turn", token=token.id)
        return IllegalAction("BG-CHAR-CLERIC-02", "{token} was healed this turn", token=token.id)

    def spend(self, token_id: str) -> None:
        if self.s.pools.get(token_id, 0) > 0:
            self.s.pools[token_id] -= 1  # BG-AP-05: the potion's own pool first
        elif self.s.tokens[token_id].colour != self.s.active:
            raise IllegalAction("PD-OBJ-CHARM-03", "the {token}'s charmed actions are spent", token=token_id)
        elif self.s.ap > 0:
            self.s.ap -= 1
        else:
            raise IllegalAction("BG-TURN-03", "no action point left")
        self.s.acted = self.s.acted | {token_id}

    def _phase_message(self) -> str:
        return {
            "team": N_("choose your starting team first"),
            "hide": N_("the hidden placement is not finished"),
            "card": N_("play an action card first"),
            "combat": N_("a combat is waiting for combat cards"),
            "place": N_("the tokens of the revealed room must be placed first"),
            "over": N_("the game is over"),
        }.get(self.s.phase, N_("not now"))

    # --- consequences ------------------------------------------------------------------------------
    def wound(self, token: Token) -> None:
        self.put(token.moved(wounded=True, wounded_turn=self.s.turn))
        self.emit("wounded", token=token.id, square=square_name(token.square))

    def eliminate(self, token: Token, cause: str) -> None:
        """Remove a character from play; its opponent scores (BG-VP-04, RUL-012). Objects stay (BG-ITEM-09)."""
        self.put(token.moved(where="eliminated", square=None))
        vp = self.s.catalogue.characters[token.code].elimination_vp
        extra = {"vp": vp} if vp != 1 else {}  # the Red Dragon's Prestige: 2 (PD-CHAR-DRAGON-04)
        self.emit("eliminated", token=token.id, cause=cause, scorer=opponent(token.colour), **extra)

    def exit_maze(self, figure: Token, *carried: Token) -> None:
        """BG-EXIT-01..05: out through the opponent's start zone, with what it carries (`carried`: the token it
        brought onto the exit square; a token already lying there, e.g. an enemy wounded, stays, BG-EXIT-03)."""
        self.put(figure.moved(where="exited", square=None))
        self.emit("exited", token=figure.id, scorer=figure.colour)
        for token in carried:  # one thing, or two for the Paladin (PD-CHAR-PALADIN-01)
            self._carried_out(figure, token)

    def _carried_out(self, figure: Token, carried: Token) -> None:
        if carried.is_character:
            self.put(carried.moved(where="saved", square=None))
            self.emit("saved", token=carried.id)
        elif self.s.catalogue.objects[carried.code].exit_vp:
            self.put(carried.moved(where="scored", square=None, scored_by=figure.colour))
            self.emit("treasure_scored", token=carried.id, scorer=figure.colour)
        else:
            self.put(carried.moved(where="discarded", square=None))
            self.emit("discarded", token=carried.id)

    def settle_pits(self) -> None:
        """A character on a pit with no Rope on it falls (BG-PIT-07, BG-PIT-09); flyers never stay on pits."""
        pits = self.board.pits
        # those on pits first: eliminating a character changes no other token, nor what `rope_on` sees
        on_pits = [t for t in self.s.tokens.values() if t.square in pits and t.where == "board" and t.is_character]
        for token in on_pits:
            if self.rope_on(token.square):
                continue
            if token.wounded or not self.has_ability(token, "acrobatics"):
                self.eliminate(token, "pit")

    def check_golden_rules(self) -> None:
        """BG-GOLD-02/03 and BG-MOVE-12 on every square, at the end of an action.

        When the state the action applies to came out of `apply` checked with the same pits (`_checked_pits`), only
        the squares a token changed on (`touched`) are looked at: every other square holds the very tokens it held
        then, when it broke no rule but for two objects left stacked, which `_stack_left` lets lie again (the
        verdict of a square depends on its tokens and the pits alone). If a touched square breaks a rule, the full
        check below finds the refusal, so it is the one it always was (the first square in token order)."""
        pits = self.board.pits
        checked = self.before._checked_pits
        if checked is not None and (checked is pits or checked == pits) and self._touched_ok(pits):
            self._checked = (pits, len(self.touched))
            return
        cat = self.s.catalogue
        at: dict[Square, list[Token]] = {}
        for token in self.s.tokens.values():
            if token.where == "board":
                here = at.get(token.square)
                if here is None:
                    at[token.square] = [token]
                else:
                    here.append(token)
        for square, tokens in at.items():
            if len(tokens) < 2 and square not in pits:
                continue  # one token alone off a pit breaks no rule
            problem = square_problem(square, tokens, pits, cat)
            if problem and not self._stack_left(square, tokens):
                raise problem
        self._checked = (pits, len(self.touched))

    def _touched_ok(self, pits) -> bool:
        """Whether every square in `touched` breaks no golden rule (`square_ok`)."""
        squares = set(self.touched)
        if not squares:
            return True
        at: dict[Square, list[Token]] = {}
        for token in [t for t in self.s.tokens.values() if t.square in squares and t.where == "board"]:
            here = at.get(token.square)
            if here is None:
                at[token.square] = [token]
            else:
                here.append(token)
        cat = self.s.catalogue
        return all(square_ok(square, tokens, pits, cat) for square, tokens in at.items()
                   if len(tokens) >= 2 or square in pits)

    def _stack_left(self, square: Square, tokens: list[Token]) -> bool:
        """Two objects left lying together where a Paladin carrying them was eliminated (PD-CHAR-PALADIN-03): they
        stay stacked, already there before this action (or turned with their room, which everything in it does,
        BG-ROT-05), until taken one at a time."""
        before = self.before.tokens
        if len(tokens) != 2 or any(t.is_character or before[t.id].where != "board" for t in tokens):
            return False
        first, second = (before[t.id].square for t in tokens)
        return first == second and (first == square or all(t.id in self.turned for t in tokens))
