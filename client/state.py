"""The client's UI state as plain objects: what the screens draw, updated only from protocol events and commands."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from dungeon_twister.engine import EngineError, IllegalAction, NotationError
from dungeon_twister.engine.core.records import ACTION_HEAD, LINE_HEAD
from dungeon_twister.protocol import TableInfo
from dungeon_twister.protocol.errors import TAKEBACK_HEAD

from .i18n import N_, _, translated

LOG_LINES = 300
LEFT_LINES = 8
"""The last lines of a table's log a kept seat shows at its new table (`ClientState.left_log`)."""
RATINGS_SEARCHED = 100
"""`ratings NAME` asks for this many best players (the protocol's most) and shows that one's line."""
CHAT_LINES = 100
MOVE_LINES = 200
TURN_FLASH_SECONDS = 2.0
"""How long the panel shows "your turn" in the alert style when a turn (or a secret choice) begins."""
LOW_CLOCK_SECONDS = 5.0
"""With timers, the bell rings once more when our clock falls to this many seconds."""


class EndFirst(str):
    """A help-box text that opens scrolled to its end, like a log: the chat so far (`chat` with no text), whose
    newest lines matter most. A text, not a flag beside `help_text`: whatever puts another text there puts back
    the usual top-first opening with it."""


@dataclass(frozen=True)
class Refusal:
    """A refused action (by the server; or by the client, for a secret choice that is not allowed): what was
    typed, the refusal code, the broken rule (if named) and why: the server's message (English), and when the
    server sent them, the same as a template and its values (action_refused.template/values)."""

    text: str
    code: str
    message: str
    rule: str | None = None
    template: str | None = None
    values: dict | None = None

    def reason(self) -> str:
        """Why, in the language in use: the template translated by the catalogue and formatted with the values;
        else (no template, a template the catalogue does not translate, or a translation that does not format
        with these values) the server's message, else the refusal's code. A parse error's " at column N: 'text'"
        is left out when its text is what was typed: `describe` shows that before the reason, and a play-test
        read "refused: 'end now': unexpected 'now' at column 5: 'end now'" as jargon said twice (pt25b F4; the
        parser's sentence names the word)."""
        template, values, message = self.template, self.values, self.message or self.code
        tail = NotationError.AT_TAIL
        if (template and template.endswith(tail) and template != tail and isinstance(values, dict)
                and values.get("text") == repr(self.text)):
            message = message.removesuffix(tail.format(column=values.get("column"), text=values["text"]))
            template = template[:-len(tail)]
            values = {name: value for name, value in values.items() if name not in ("column", "text")}
        return server_text(message, template, values)

    def describe(self) -> str:
        """The message bar's line (`reason`)."""
        if self.rule:
            # TRANSLATORS: an action refused: {rule} is a rule ID (BG-MOVE-09), {action} the action as typed,
            # {reason} the server's explanation (translated when the catalogue has its sentence, else English)
            return _("refused [{rule}]: {action}: {reason}").format(rule=self.rule, action=repr(self.text),
                                                                   reason=self.reason())
        # TRANSLATORS: an action refused: {action} is the action as typed, {reason} the server's explanation
        return _("refused: {action}: {reason}").format(action=repr(self.text), reason=self.reason())


TEMPLATE_HEADS = (
    # TRANSLATORS: a game record's line that does not parse: {line} its number, {message} the parser's error
    (LINE_HEAD, N_("line {line}: {message}")),
    # TRANSLATORS: a game record's line the rules refuse: {record_line} its number, {record_text} the line, {message}
    # the refusal
    (ACTION_HEAD, N_("line {record_line} ({record_text}): {message}")),
    # TRANSLATORS: the server refused a takeback: {message} is why ("the last action is your opponent's")
    (TAKEBACK_HEAD, N_("nothing of yours can be taken back: {message}")),
)
"""The heads put before another template: a game record's errors before the error of one of its lines
(engine/core/records.py), a refused takeback before its reason (docs/protocol.md, `error`); and the msgid that
places the inner template's translation."""


def translated_template(template: str, values: dict) -> str | None:
    """A refusal's English template translated by the catalogue and formatted with its values, or None when the
    catalogue does not translate it or the translation does not format with them (the caller shows the English
    message). A parse error that says where (bad_notation: the parser's template followed by " at column {column}:
    {text}", NotationError.full_template) is translated as its two templates, each a msgid of the catalogue; an
    error of a game record's line or a refused takeback (`TEMPLATE_HEADS`) as its head and the inner template."""
    for head, msgid in TEMPLATE_HEADS:
        if template.startswith(head) and len(template) > len(head):
            inner = translated_template(template[len(head):], values)
            outer = translated(msgid)
            if inner is not None and outer is not None:
                try:
                    return outer.format(**{**values, "message": inner})
                except Exception:  # a translation with a field the values cannot fill: the message says it
                    return None
    try:
        if template.endswith(NotationError.AT_TAIL) and template != NotationError.AT_TAIL:
            inner, at = translated(template[:-len(NotationError.AT_TAIL)]), translated(NotationError.AT)
            if inner is None or at is None:
                return None
            return at.format(message=inner.format(**values), column=values["column"], text=values["text"])
        text = translated(template)
        return None if text is None else text.format(**values)
    except Exception:  # a value missing, a field the values cannot fill: the message says it
        return None


def server_text(text: str, template: str | None, values: dict | None) -> str:
    """A sentence of the server (error.message, refused.reason) in the language in use when it came with a
    template the catalogue translates (error.template/values), else as the server wrote it."""
    if template:
        return translated_template(template, values or {}) or text
    return text


def notation_error_text(error: NotationError) -> str:
    """A parse error of the client's own parse (a secret choice typed), in the language in use when the catalogue
    has its templates, else English (as the server's bad_notation refusals)."""
    return translated_template(error.full_template, error.full_values) or str(error)


def engine_error_text(error: EngineError) -> str:
    """An engine error (a game record's, `dt-client replay`) in the language in use where the catalogue has its
    templates, else English: a parse error as `notation_error_text`, a refusal after its rule ID."""
    if isinstance(error, NotationError):
        return notation_error_text(error)
    if isinstance(error, IllegalAction):
        text = translated_template(error.template, error.values)
        # the rule ID as a label, set apart as the language does (names.labelled's text: French puts a no-break
        # space before the colon; state.py cannot import names, which imports it)
        return str(error) if text is None else _("{label}: {text}").format(label=error.rule, text=text)
    return str(error)


PURPOSE_NAMES = {
    # TRANSLATORS: a secret choice, in the texts that say who made it, whose time ran out, what was chosen ("Yellow
    # has made his secret choice (the starting team); make yours")
    "team": N_("the starting team"),
    # TRANSLATORS: a secret choice (a free team building, PD-TEAM-FREE, or the Card Game's full frontal selection)
    "build": N_("the team built"),
    # TRANSLATORS: a secret choice: the Card Game's start characters, placed face down (CG-TUT1-04)
    "hide": N_("the start characters' places"),
    # TRANSLATORS: a secret choice: the icon each Card Game start character points at the room in front (CG-START-02)
    "face": N_("the start characters' facings"),
}
"""The secret choices' purposes (the protocol's names: team, combat-2...) in a player's words: `purpose_name`."""


def purpose_name(purpose: object) -> str:
    """A secret choice's purpose as a player reads it: "the card for combat 2" for combat-2, "the starting team" for
    team (a newcomer read "(combat-1)" and "(team)" as noise: play-test pt29 F12); one not known, as it is."""
    if isinstance(purpose, str) and purpose in PURPOSE_NAMES:
        return _(PURPOSE_NAMES[purpose])
    number = purpose[len("combat-"):] if isinstance(purpose, str) and purpose.startswith("combat-") else ""
    if number.isdigit():
        # TRANSLATORS: a secret choice: the combat card each side lays for the {number}th combat of the game
        return _("the card for combat {number}").format(number=number)
    return str(purpose)


def purpose_label(purpose: str) -> str:
    """A secret choice's purpose in the prompt, short: "combat 2" for combat-2, else its command (team, hide)."""
    number = purpose[len("combat-"):] if purpose.startswith("combat-") else ""
    # TRANSLATORS: the prompt's word for the card laid in a combat: {number}, the game's combat number
    return _("combat {number}").format(number=number) if number.isdigit() else purpose


@dataclass
class SecretChoice:
    """One commit-reveal round of ours: the committed choice and how far the round got. Told in a player's words
    (chosen, shown, checked), not the protocol's (committed, revealed, commitment: play-test pt29 F4)."""

    purpose: str
    choice: str
    revealed: bool = False
    opponent_choice: str | None = None
    """The opponent's verified choice, once his reveal arrived and opened his commitment."""
    opponent_remade: bool = False
    """The opponent's choice was made again by the server (a bot's, lost with a restart: DT-091): no reveal of his
    will open a commitment, and none is waited for."""

    def describe(self, pending: bool = True) -> str:
        """The round as far as it got. `pending`: the game still waits for this choice; once it went on (the reveal
        of a card game's hidden start characters comes when the teams are shown, CG-TUT1-05), the opponent's reveal
        is no longer something to wait for."""
        choice = repr(self.choice)
        if self.opponent_choice is not None:
            # TRANSLATORS: a secret choice's round (commit-reveal): {purpose} is what is chosen, in words (the
            # starting team, the card for combat 3); {choice} and {opponent} the choices as typed
            return _("{purpose}: you chose {choice}, the opponent {opponent} (checked: made before he saw yours)"
                     ).format(purpose=purpose_name(self.purpose), choice=choice, opponent=repr(self.opponent_choice))
        if self.opponent_remade:
            # TRANSLATORS: a secret choice's round (commit-reveal) whose opponent's choice the server made again after
            # its restart (a bot's): {purpose} what is chosen, in words (the starting team, the card for combat 3)
            return _("{purpose}: you chose {choice}; the opponent's choice was made again after the server's restart, "
                     "so there is nothing of his to check").format(purpose=purpose_name(self.purpose), choice=choice)
        if self.revealed and self.purpose == "build":  # hidden forces (PD-TEAM-FREE-01, DT-120)
            # TRANSLATORS: a free team building's secret round: "build" is the command's name, shown as it is
            # (opened to the server alone: "revealed" read as if the opponent had seen it, a play-test found)
            return _("build: you built {choice}, which the opponent sees when the game ends; his build is shown, "
                     "and checked, then").format(choice=choice)
        if self.revealed and not pending:
            # TRANSLATORS: a secret choice's round that the game has gone on from: {purpose} is what is chosen, in
            # words (the start characters' places, the starting team)
            return _("{purpose}: you chose {choice}; the opponent's choice is shown when the game shows it, checked "
                     "to be the one he made before he saw yours").format(purpose=purpose_name(self.purpose),
                                                                         choice=choice)
        if self.revealed:
            # TRANSLATORS: a secret choice's round: {purpose} is what is chosen, in words (the starting team, the card
            # for combat 3)
            return _("{purpose}: you chose {choice}; waiting for the opponent's choice to be shown").format(
                purpose=purpose_name(self.purpose), choice=choice)
        # TRANSLATORS: a secret choice's round: {purpose} is what is chosen, in words (the starting team, the card for
        # combat 3)
        return _("{purpose}: you chose {choice}; waiting for the opponent to choose").format(
            purpose=purpose_name(self.purpose), choice=choice)


@dataclass(frozen=True)
class TableSetup:
    """What to do once our new table exists: join it (in `seat`, None: any) and seat a bot in the other seat."""

    seat: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class Reconnecting:
    """A connection being opened again (after a lost one): shown as a countdown in the message bar."""

    reason: str
    attempt: int
    next_at: float
    """When the next attempt starts (the session's clock)."""
    until: float | None
    """When the server gives our seat up, as far as we know (None: not at a table)."""
    stopped: bool = False
    """The game is stopped (the server could not save it: the log says the server's words) and the seat kept."""
    watching: bool = False
    """We watch the stopped game (a spectator): no seat is kept for us, the watch resumes."""

    def describe(self, now: float) -> str:
        wait = self.next_at - now
        if wait >= 0.5:
            # TRANSLATORS: part of the reconnection's countdown: {seconds} until the next attempt; s: seconds
            step = _("attempt {number} in {seconds} s").format(number=self.attempt + 1, seconds=f"{wait:.0f}")
        else:
            # TRANSLATORS: part of the reconnection's countdown: the attempt under way
            step = _("attempt {number}...").format(number=self.attempt + 1)
        if self.stopped and self.watching:
            # TRANSLATORS: a spectator's countdown while the game he watches is stopped, the server unable to save it
            # (the log has the server's words): {attempt} "attempt 2 in 30 s" (or "attempt 2..."); `reconnect` is
            # the command, typed as it is
            return _("game stopped, the server cannot save it: watching again, {attempt} · `reconnect` tries "
                     "now").format(attempt=step)
        if self.stopped:
            # TRANSLATORS: the countdown while a game the server could not save is stopped (the log has the server's
            # words): {attempt} "attempt 2 in 30 s" (or "attempt 2..."); `reconnect` is the command, typed as it is
            return _("game stopped, the server cannot save it: your seat is kept; taking it back, {attempt} · "
                     "`reconnect` tries now").format(attempt=step)
        if self.until is None:
            # TRANSLATORS: the reconnection's countdown: {reason} why the connection was lost, {attempt} "attempt 2 in
            # 3 s" (or "attempt 2..."); `reconnect` is the command, typed as it is
            return _("connection lost ({reason}): reconnecting, {attempt} · `reconnect` tries now").format(
                reason=self.reason, attempt=step)
        # TRANSLATORS: the reconnection's countdown at a table: {attempt} "attempt 2 in 3 s" (or "attempt 2..."),
        # {seconds} until the server gives the seat up; s: seconds; `reconnect` is the command, typed as it is
        return _("connection lost ({reason}): reconnecting, {attempt}; your seat is held {seconds} s more · "
                 "`reconnect` tries now").format(reason=self.reason, attempt=step,
                                                 seconds=f"{max(0, self.until - now):.0f}")


def resigned_text(name: str) -> str:
    """What the winner is told of the opponent's resignation (`ClientState.opponent_resigned`): he left, so a
    rematch needs a new table."""
    # TRANSLATORS: after "game over: Yellow wins", to the winner, and as the answer to his `rematch`; {name} the
    # opponent, who resigned by leaving the table (`leave` or `resign`); `leave` and `create` are commands, typed as
    # they are
    return _("{name} resigned and left: a rematch needs a new table (`leave`, then `create`)").format(name=name)


GONE_REASONS = frozenset({"resigned", "abandoned", "abandoned by both", "aborted"})
"""The ends of a game that one of its players left (`result.reason`): nobody to play a rematch with."""


@dataclass
class ClientState:
    """Everything the screens show. `table` set means the game screen, else the lobby."""

    name: str
    server: str = ""
    local: bool = False
    """The server is the one `dt-client play` runs for this game alone (gone with the client)."""
    role: str = "player"
    """The role of the current connection: "player" or "spectator"."""
    connected: bool = False
    tables: list[TableInfo] = field(default_factory=list)
    table: str | None = None
    seat: str | None = None
    join_code: str | None = None
    view: dict | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    left_log: tuple[str | None, list] = (None, [])
    """The table last left and its log's last lines (LEFT_LINES): a seat kept at a new table (`seat_kept`) shows
    them there, above why he is there (play-test pt31: the aborted game's last lines went with its table)."""
    came_in: bool = False
    """The table's view came as a snapshot (joining, coming back, a resume the server could not fill with events):
    what happened before it is in the view, not in `log`."""
    resync_asked: bool = False
    """A table event this client could not handle made it ask for a snapshot (inbox._unreadable), and no snapshot
    has been handled since: another such event asks for none (a snapshot that fails too is not asked again)."""
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    ignored: dict[str, str] = field(default_factory=dict)
    """The players whose chat is not shown (`ignore NAME`), for this run of the client: by `name_key` (one player
    for "Bob" and "bob"), the name as typed."""
    notice: str = ""
    """The last informative message (a command's answer, a server error)."""
    event_notice: str = ""
    """The notice a table event put there (an action taken back, a request declined): the game moving on takes it
    away (inbox._questions), as a line typed takes any notice away; a spectator types nothing."""
    carried: str = ""
    """A line for the log of the next table we enter (kept across leaving one): why the last seat was lost when the
    server no longer knew it (restored from an older copy), which a seat its key takes back at once (the copy's
    table) would otherwise wipe from the screen."""
    question: str = ""
    """What stays pending until it is answered, shown when the message bar has nothing newer (`message_bar`): a
    takeback the opponent asks of us ("type yes or no"), or ours waiting for his answer. Each line typed clears
    the bar's notice, not this."""
    refusal: Refusal | None = None
    alert: str | None = None
    """A cheating alarm (an opponent's reveal that does not open his commitment); stays until dismissed."""
    ratings_for: str | None = None
    """The player `ratings NAME` asked about, until the leaderboard comes."""
    games_page: int = 1
    """The page of finished games asked for last (`games N`)."""
    games_asked: bool = False
    """A `list_games` is unanswered: an `unknown_type` error now is an older server's refusal of it."""
    help_text: str | None = None
    """The help box's text (help, the ratings, the chat so far); an `EndFirst` text opens at its end."""
    timers: dict[str, float] = field(default_factory=dict)
    """Seat -> deadline on the client's monotonic clock."""
    secrets: dict[str, SecretChoice] = field(default_factory=dict)
    """Our commit-reveal rounds at this table, by purpose."""
    opponent_committed: set[str] = field(default_factory=set)
    """The purposes of the rounds the opponent has committed to (opponent_commit): he has chosen, which the view
    says only once both choices are revealed."""
    opponent_remade: set[str] = field(default_factory=set)
    """Purposes whose opponent's choice the server made again after its restart (SecretChoice.opponent_remade)."""
    pending_actions: dict[str, str] = field(default_factory=dict)
    """Action id -> text of the actions sent and not yet answered."""
    away: dict[str, float] = field(default_factory=dict)
    """Seat -> when (the session's clock) the grace of a player who disconnected runs out."""
    result: dict | None = None
    table_gone: bool = False
    """The server no longer has us at this table (it restarted under a finished game's screen): the screen stays
    until `leave`, which then leaves it here alone."""
    reconnecting: Reconnecting | None = None
    confirm: str | None = None
    """A command that must be typed again to be carried out (leaving a running game resigns it)."""
    takeback_asked: str | None = None
    """The opponent's seat while he asks us to take back his last action (docs/rulings.md DT-224)."""
    draw_offered: str | None = None
    """The opponent's seat while he offers us a draw (docs/rulings.md DT-228)."""
    rematch_offered: str | None = None
    """The opponent's seat while he offers us a rematch (the game over: `rematch` accepts it)."""
    rematch_asked: str | None = None
    """The table at which we asked for a rematch, until it is made, refused or lapses."""
    opponent_gone: bool = False
    """The opponent left the finished game's table (a rematch offer lapsed for it): no `rematch` to offer."""
    rematch_to: str | None = None
    """The table the server makes for the rematch (its event `rematch`), kept across the `left` and
    `table_created` that take us there, until its `joined` (inbox)."""
    taken_to: str | None = None
    """The table whose `table_created` came unasked, not a rematch's: the server takes us to a seat it kept for our
    name (we were cut off, or it restarted, before we sat there), until its `joined` (inbox)."""
    asked_last: str | None = None
    """What the opponent asked of us last, "takeback" or "draw": `yes` and `no` answer it when both are pending."""
    view_of_request: bool = False
    """The next view event comes with a request or its refusal (not an action): it marks no action's start."""
    we_asked: set[str] = field(default_factory=set)
    """What we asked of the opponent and wait for his answer to: "takeback", "draw"."""
    turn_since: float | None = None
    """Since when (the session's clock) we have had something to do (an action or a secret choice); None while
    we have nothing to do. The panel flashes for TURN_FLASH_SECONDS after it."""
    bells: int = 0
    """How many times the terminal's bell should have rung (a turn began, our clock fell to its last seconds):
    the UI rings when it has rung fewer."""
    low_clock_warned: bool = False
    link_note: str | None = None
    """What the connection's transport had to say (TLS pinned on first use, plain TCP), shown once connected."""
    room_picks: list[tuple[str, str]] = field(default_factory=list)
    """(seat, `pick <pair>`) of a mutual team building's room picks, in order: the deal check replays them."""
    deal_checked: bool = False
    deal_mine: str | None = None
    """Our contribution to the deal (feature seed_contributions, docs/protocol.md section 16), once committed."""
    deal_theirs: str | None = None
    """The opponent's contribution, as his reveal opened his commitment ("" when he contributes nothing)."""
    """The revealed seed has been checked against the server's commitment (client/fairness.py)."""
    moves: deque[str] = field(default_factory=lambda: deque(maxlen=MOVE_LINES))
    """The game so far, compactly (client/describe.py compact_event), newest last: the panel shows the end."""
    moves_made: int = 0
    """How many entries `moves` was given in all (it keeps the last MOVE_LINES)."""
    moves_at_views: deque[int] = field(default_factory=lambda: deque(maxlen=2))
    """`moves_made` at the last two views: a step is its action's events, then a view, so a taken-back action's
    entries are those after the last view but one (`take_back_moves`)."""
    trails: dict[str, list[str]] = field(default_factory=dict)
    """Colour -> the squares of that side's last move (its route, start to end), shaded on the board."""

    @property
    def at_table(self) -> bool:
        return self.table is not None

    @property
    def spectating(self) -> bool:
        return self.at_table and self.seat is None

    @property
    def opponent_resigned(self) -> str | None:
        """The opponent's name (else his colour) when the game we play ended by his resignation: the server resigns
        a player who leaves a running game, so he is in its lobby and a `rematch` at this table is refused
        (play-test pl31: the winner learnt it only from that refusal, "ann has left the table: no rematch").
        None otherwise, and against a bot, whose rematch the server makes."""
        view = self.view or {}
        table = view.get("table")
        result = self.result or (table.get("result") if isinstance(table, dict) else None)
        if self.seat is None or not isinstance(result, dict) or result.get("reason") != "resigned" \
                or result.get("winner") != self.seat:
            return None
        seats = view.get("seats")
        other_seat = "Y" if self.seat == "B" else "B"
        other = seats.get(other_seat) if isinstance(seats, dict) else None
        if isinstance(other, str) and "-bot-" in other:
            return None
        return other if isinstance(other, str) and other else other_seat

    @property
    def may_rematch(self) -> bool:
        """A finished game we played against a bot, or against a person who may still be at the table (the game did
        not end by one of us leaving it: resigned, abandoned, aborted): `rematch` may play it again
        (docs/protocol.md, `rematch`; after we resigned against a bot, the client makes it: commands.py)."""
        view = self.view or {}
        table = view.get("table")
        result = self.result or view.get("outcome") or (table.get("result") if isinstance(table, dict) else None)
        if self.seat is None or not isinstance(result, dict):
            return False
        seats = view.get("seats")
        other = seats.get("Y" if self.seat == "B" else "B") if isinstance(seats, dict) else None
        if isinstance(other, str) and "-bot-" in other:
            return True
        return not self.table_gone and not self.opponent_gone and result.get("reason") not in GONE_REASONS

    @property
    def legal(self) -> list[str]:
        """Our legal actions as canonical text (empty when not our turn, or for a spectator)."""
        legal = self.view.get("legal") if self.view else None
        # (only texts: what else a server puts there is not an action, and the prompt's completion reads this list)
        return [text for text in legal if type(text) is str] if isinstance(legal, (list, tuple)) else []

    @property
    def legal_omitted(self) -> int:
        """How many legal actions the server left out of our view because it would not fit in a frame with them
        (docs/protocol.md section 13, Views); 0 when it listed them. We act all the same, by typing the action."""
        omitted = (self.view or {}).get("legal_omitted")
        return omitted if type(omitted) is int and omitted > 0 else 0

    @property
    def build_parts(self) -> list[dict] | None:
        """While we must build our team in secret (free choice, PD-TEAM-FREE-01): what the build is made of, one
        {"name", "count", "values", ["copies"]} per part (the legal set is too large to list)."""
        view = self.view or {}
        build = view.get("build")
        return build["parts"] if build and view.get("secret") == "build" else None

    @property
    def game_running(self) -> bool:
        """We sit at a table whose game has started and is not over."""
        view = self.view or {}
        return (self.seat is not None and bool(view.get("started", True)) and "players" in view
                and self.result is None and not view.get("outcome"))

    @property
    def game_over(self) -> bool:
        """We are at a table whose game has ended (its screen shows the result)."""
        return self.at_table and (self.result is not None or bool((self.view or {}).get("outcome")))

    @property
    def to_act(self) -> bool:
        """Something to do now: an action to play or a secret choice to make."""
        return (bool(self.legal) or bool(self.legal_omitted)
                or bool(self.secret_purpose and self.secret_purpose not in self.secrets))

    def note_turn(self, now: float) -> None:
        """After a new view: a turn (or a secret choice) that begins rings the bell and starts the flash."""
        if self.to_act and self.game_running:
            if self.turn_since is None:
                self.turn_since, self.bells = now, self.bells + 1
        else:
            self.turn_since, self.low_clock_warned = None, False

    def note_clock(self, now: float) -> None:
        """Our timer falls to LOW_CLOCK_SECONDS while we have something to do: the bell rings once."""
        deadline = self.timers.get(self.seat) if self.seat else None
        if (deadline is not None and self.turn_since is not None and not self.low_clock_warned
                and deadline - now <= LOW_CLOCK_SECONDS):
            self.low_clock_warned, self.bells = True, self.bells + 1

    @property
    def secret_purpose(self) -> str | None:
        """The purpose of the simultaneous secret choice we must make now, if any."""
        return self.view.get("secret") if self.view else None

    def enter_table(self, table: str, seat: str | None) -> None:
        self._reset_table()
        self.table, self.seat = table, seat

    def leave_table(self) -> None:
        self._reset_table()
        self.table = self.seat = self.join_code = None

    def _reset_table(self) -> None:
        self.chat.clear()  # (a table's chat is not the lobby's, nor the next table's)
        if getattr(self.help_text, "goal", False):  # (that table's game's goal: not over the next table's screen)
            self.help_text = None
        self.view = None
        self.alert = None
        self.result = None
        self.table_gone = False
        self.refusal = None
        if self.table is not None and self.log:
            self.left_log = (self.table, list(self.log)[-LEFT_LINES:])
        self.log.clear()
        self.came_in = False
        self.timers.clear()
        self.secrets.clear()
        self.opponent_committed.clear()
        self.opponent_remade.clear()
        self.pending_actions.clear()
        self.away.clear()
        self.confirm = None
        self.takeback_asked = self.draw_offered = self.asked_last = None
        self.rematch_offered = self.rematch_asked = None
        self.opponent_gone = False
        self.we_asked.clear()
        self.question = ""
        self.turn_since = None
        self.low_clock_warned = False
        self.trails = {}
        self.moves.clear()
        self.moves_made = 0
        self.moves_at_views.clear()
        self.view_of_request = False
        self.deal_checked = False
        self.deal_mine = self.deal_theirs = None
        self.room_picks = []
        self.resync_asked = False  # (a snapshot asked for at the table left will not come)

    def forget_history(self, note: str) -> None:
        """The game went back behind what the log and the move list show (a server restored from an older copy of
        its store): both start again here, the log with `note`; the last moves' shading goes too."""
        self.log.clear()
        self.log.append(note)
        self.came_in = True
        self.moves.clear()
        self.moves_made = 0
        self.moves_at_views.clear()
        self.trails = {}

    def add_move(self, entry: str) -> None:
        self.moves.append(entry)
        self.moves_made += 1

    def view_came(self) -> None:
        self.moves_at_views.append(self.moves_made)

    def take_back_moves(self) -> None:
        """The last action was taken back (DT-224): its entries leave the move list. Nothing is removed when the
        action before it is not known (a view missed: just joined or back)."""
        if len(self.moves_at_views) < 2:
            return
        gone = self.moves_made - self.moves_at_views[0]
        for _gone in range(min(gone, len(self.moves))):
            self.moves.pop()
        self.moves_made -= gone
        self.moves_at_views.clear()

    def say(self, notice: str) -> None:
        """Show an informative message (it replaces the last refusal)."""
        self.notice = notice
        self.refusal = None

    def not_sent(self, typed: str | None) -> None:
        """What the player typed could not be sent: the connection is lost. While it is being made again the
        message bar shows the countdown, not the notice that says so, so the log says it too (a play-test's move,
        typed while the server was down, vanished without a word and read as played)."""
        if self.reconnecting is not None:
            # TRANSLATORS: {what} is what the player typed (a move, a chat line), as typed
            self.log.append(_("not sent, the connection is lost: {what} · type it again once back").format(what=typed)
                            if typed else _("not sent, the connection is lost · type it again once back"))
