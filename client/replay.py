"""`dt-client replay FILE`: step through a game record (the board game's or the card game's) forwards and backwards
on the game's own drawing.

A record (as `dt-server records DIR TABLE` prints it, or a `dt-engine play` file: a `game seed=...` or position
header, then one `B: action` / `Y: action` line each) is replayed with the engine, which checks every action as
it goes. A finished game is shown with everything revealed (nothing is hidden any more); an unfinished one as a
spectator sees it. `Replay` is the plain state (tested without a terminal); `run_replay` puts it on the screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dungeon_twister.engine import event_view
from dungeon_twister.engine.core.errors import EngineError
from dungeon_twister.engine.core.events import GOD
from dungeon_twister.engine.families import BOARD, Family, family_of_record

from .describe import UNPLAYED, reason_text
from .games import GAMES, Screens
from .i18n import _, ngettext
from .names import score, seat_name


@dataclass
class Step:
    """One applied action of the record: its line, and what it did (its events, described)."""

    line: str
    events: list[str]
    trails: dict[str, list[str]]
    timed_out: bool = False
    """The server played it for a seat whose time ran out (the record's `# timeout` comment), not the player."""
    remade: bool = False
    """The server made this secret choice again for a bot whose own was lost with a restart (DT-091: the record's
    `# restart` comment)."""


_RESULT = re.compile(r"winner=(?P<winner>[BY-]) vp=B(?P<blue>-?\d+),Y(?P<yellow>-?\d+) reason=(?P<reason>.+)")
"""The server's `# result` comment (server/play.py): `winner=B vp=B3,Y1 reason=resigned`."""


def ending_text(winner: str | None, vp: dict, reason: str) -> str:
    """'Game over: Blue wins 3-1 (the other player resigned)', in the reader's language, as the game's panel words
    it (client/panel.py: the winner's VP first; a play-test read "1-0" in the game and "0-1" in its replay)."""
    values = {"score": score(vp, winner), "reason": reason_text(reason)}
    if winner is not None:
        return _("Game over: {seat} wins {score} ({reason})").format(seat=seat_name(winner), **values)
    if reason in UNPLAYED:
        return _("Game over without a winner ({reason})").format(**values)
    return _("Game over: a draw ({reason}), VP {score}").format(**values)


@dataclass
class Replay:
    """The record's positions, the start (index 0) and after each action (index k: after the k-th action)."""

    states: list = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    index: int = 0
    result: str | None = None
    """The server's `# result ...` comment line of a game that ended outside the rules (resigned, abandoned)."""
    rounds: tuple[int, list[str]] = (0, [])
    """The record's commit-reveal rounds checked (docs/protocol.md section 10): how many reveals opened their
    commitment, and what did not."""
    family: Family = BOARD
    """The rules of the record's game (a `game cards ...` record is the card game's)."""
    stopped: EngineError | None = None
    """Why the replay ends before the record does (`of(text, partial=True)`): the first line this version's rules
    refuse, in a record of a game played under earlier ones (the rules were corrected since), else None."""
    deal: bool | None = None
    """Whether the record's seed opens the commitment the server made to it before the game (docs/protocol.md
    section 16); None when the record has none (a hand-made record, or one of an older server). With `deal_mixed`,
    whether its seed is the mix of the server's committed seed and the players' contributions."""
    deal_mixed: bool = False
    table: str | None = None
    """The table the record's `# table ID` line names (a server's record), else None."""

    @classmethod
    def of(cls, text: str, partial: bool = False) -> Replay:
        """Replay a record's text; EngineError (a bad line, an illegal action: with its line number) if the record
        is not a game the rules allow. `partial` (dt-client replay, not verify): a record whose actions the rules
        take up to a line and refuse from it is replayed up to there, the refusal kept in `stopped`: a game played
        before a rule was corrected (DT-287, DT-288) could no longer be watched at all; a record whose first
        action is refused still raises."""
        family = family_of_record(text)
        state, lines = family.parse_record(text)
        replay = cls([state], family=family)
        results = [line[len("# result "):].strip() for line in text.splitlines() if line.startswith("# result ")]
        replay.result = results[-1] if results else None
        replay.rounds = verified_rounds(text)
        replay.deal = verified_seed(text)
        replay.deal_mixed = any(line.startswith("# deal-commitment ") for line in text.splitlines())
        replay.table = next((line.split()[2] for line in text.splitlines()
                             if line.startswith("# table ") and len(line.split()) == 3), None)
        clock, restarts = laid_by_the_clock(text, lines), laid_by_the_clock(text, lines, "restart")
        applied = []
        try:
            for line, state, events in family.replayed(state, lines):
                replay.states.append(state)
                applied.append((line, events))
        except EngineError as error:
            if not partial or not applied:
                raise
            replay.stopped, replay.result = error, None  # (the result is the whole record's, not this part's)
        if replay.table is not None:  # a server's record: each secret choice applied must be the one revealed
            verified, problems = replay.rounds
            replay.rounds = (verified, problems + applied_as_revealed(text, family, applied, replay.states,
                                                                      clock | restarts))
        viewer = replay.viewer  # known once the last state is: the events are seen as the board is
        trails: dict[str, list[str]] = {}
        for line, events in applied:
            described, trails = [], dict(trails)
            for event in events:
                seen = event_view(event, viewer) or {}
                if seen.get("kind") == "game_over":
                    continue  # (the panel's last line says it: a play-test read the end twice, in two wordings)
                text = replay.screens.describe(seen)
                if text:
                    described.append(text)
                if seen.get("kind") in ("moved", "wallwalked", "jumped") and seen.get("route"):
                    trails[seen["token"][:1].upper()] = list(seen["route"])
            replay.steps.append(Step(line.text, described, trails, line.number in clock, line.number in restarts))
        return replay

    @property
    def viewer(self) -> str | None:
        """Everything is shown once the game is over; an unfinished game as its spectators see it."""
        return GOD if self.states[-1].outcome is not None or self.result else None

    @property
    def screens(self) -> Screens:
        """How the client draws and words this game (client/games.py)."""
        return GAMES[self.family.name]

    def ending(self, index: int) -> tuple[str | None, dict, str] | None:
        """How the game stands ended after action `index`: (winner or None for a draw, VP by seat, reason), from
        the rules' outcome or, after the last action, from the server's `# result` comment (a resignation, an
        abandon); None if it is not over there (or the comment is not one this client reads)."""
        outcome = self.states[index].outcome
        if outcome is not None:
            return outcome.winner, dict(outcome.vp), outcome.reason
        found = _RESULT.fullmatch(self.result or "") if index == len(self.steps) else None
        if found is None:
            return None
        winner = found["winner"] if found["winner"] in ("B", "Y") else None
        return winner, {"B": int(found["blue"]), "Y": int(found["yellow"])}, found["reason"]

    def view(self) -> dict:
        return self.family.view(self.states[self.index], self.viewer)

    def trails(self) -> dict[str, list[str]]:
        return self.steps[self.index - 1].trails if self.index else {}

    def go(self, delta: int) -> None:
        self.index = max(0, min(len(self.steps), self.index + delta))

    def go_to(self, index: int) -> None:
        self.index = max(0, min(len(self.steps), index))

    def panel(self) -> list[str]:
        """The side panel's lines: where we are, the action shown and what it did, the outcome at the end."""
        total = len(self.steps)
        if self.index == 0:
            lines = [_("Action {index} of {total} (the start)").format(index=self.index, total=total)]
        else:
            lines = [_("Action {index} of {total}").format(index=self.index, total=total)]
        if self.index:
            step = self.steps[self.index - 1]
            # TRANSLATORS: after a replayed action the server played for a seat whose time ran out (a combat's +0,
            # a turn's end or pass), e.g. "Y: combat +0 (time ran out)"
            shown = step.line + " " + _("(time ran out)") if step.timed_out else step.line
            if step.remade:
                # TRANSLATORS: after a replayed secret choice the server made again for a bot whose own was lost
                # when the server restarted, e.g. "Y: team b16=WA ... (made again after the server's restart)"
                shown += " " + _("(made again after the server's restart)")
            lines += ["", shown, *("  " + text for text in step.events)]
        ending = self.ending(self.index)
        if ending is not None:
            lines += ["", ending_text(*ending)]
        elif self.result and self.index == len(self.steps):
            lines += ["", _("Game over ({result})").format(result=self.result)]
        lines += self.seats()
        if self.stopped is not None and self.index == len(self.steps):
            lines += ["", stopped_text(self.stopped)]
        if self.deal is not None and self.deal_mixed:
            lines += ["", _("Deal: the seed mixes the server's seed, which opens its commitment made before the "
                            "game, with the players' contributions (verified): every random draw follows from it")
                      if self.deal else _("Deal: NOT VERIFIED: the seed is not the mix of the server's committed "
                                          "seed and the players' contributions")]
        elif self.deal is not None:
            lines += ["", _("Deal: the seed opens the commitment the server made before the game (verified): every "
                            "random draw follows from it") if self.deal else
                      _("Deal: NOT VERIFIED: the seed does not open the server's commitment")]
        verified, problems = self.rounds
        if verified or problems:
            lines += ["", ngettext("Commit-reveal: {n} reveal opens its commitment (verified)",
                                         "Commit-reveal: {n} reveals open their commitment (verified)",
                                         verified).format(n=verified)
                      + "".join(_("; NOT VERIFIED: {problem}").format(problem=problem) for problem in problems)]
        if self.viewer == GOD:
            lines += ["", _("The game is over: everything is shown, what was hidden and the secret choices included.")]
        # TRANSLATORS: the replay screen's keys (→, space, ←, PgDn, PgUp, Home, End, q) and what they do
        lines += ["", _("→ / space: next   ← : back   PgDn / PgUp: 10   Home / End   q: quit")]
        return lines


    def seats(self) -> list[str]:
        """Each seat's VP, cards and jumps here, a line a seat, as the game's panel words them: their hands too once
        the game is over (the view of everything). The replay said the VP only at the end, and no hand at all,
        though a finished game promises everything that was hidden (audit rp33)."""
        view = self.view()
        players = view.get("players") or {}
        lines: list[str] = []
        for seat in ("B", "Y"):
            if seat in players:  # one line a seat (a 60 x 20 terminal has room for little more than the action)
                part = self.screens.panel.player(view, seat, players[seat], False)
                said = [line.strip() for line in "".join(text for _style, text in part).split("\n")]
                lines.append(" · ".join(line for line in said if line))
        return [""] + lines if lines else []


def laid_by_the_clock(text: str, lines: list, why: str = "timeout") -> set[int]:
    """The numbers of the record's action lines (`lines`, engine RecordLine) the server played for a seat whose time
    ran out, as its `# timeout` comments say (server/play.py): `# timeout SEAT PURPOSE CHOICE` before the line of a
    secret choice laid for that seat (`Y: combat +0`, applied once the round is complete), `# timeout SEAT A; B`
    right after the lines of the actions played for it (`Y: pass`). A replay showed them as if chosen (play-test
    pt24 F12). `why` "restart": the secret choices made again for a bot after a restart (DT-091), whose comment
    has the first form."""
    actions = [(line.number, line.text) for line in lines]
    marked: set[int] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if len(words) < 3 or words[:2] != ["#", why] or words[2] not in ("B", "Y"):
            continue
        seat, rest = words[2], words[3:]
        choice = f"{seat}: {' '.join(rest[1:])}"
        later = next((n for n, line in actions if n > number and n not in marked and line == choice), None)
        if len(rest) > 1 and later is not None:  # a secret choice: its line comes when the round is complete
            marked.add(later)
            continue
        played = [f"{seat}: {action.strip()}" for action in " ".join(rest).split(";")]
        before = [(n, line) for n, line in actions if n < number][-len(played):] if played else []
        if [line for _, line in before] == played:
            marked.update(n for n, _ in before)
    return marked


def _comment(lines: list[str], name: str) -> str | None:
    """The value of a record's `# NAME VALUE` line (the first)."""
    return next((line.split()[2] for line in lines if line.startswith(f"# {name} ") and len(line.split()) == 3),
                None)


def verified_seed(text: str) -> bool | None:
    """Whether the seed of the record's start line and its `# seed-nonce` open its `# seed-commitment` for the game
    `# table` names (docs/protocol.md section 16); None if the record carries no commitment."""
    from dungeon_twister.protocol.commit import verify_seed

    lines = text.splitlines()
    table, commitment, nonce = (_comment(lines, name) for name in ("table", "seed-commitment", "seed-nonce"))
    start = next((line for line in lines if line.strip() and not line.startswith("#")), "")
    seed = re.search(r"\bseed=(\d+)\b", start)
    if commitment is None and _comment(lines, "deal-commitment") is not None:
        return verified_mix(lines, table, int(seed.group(1)) if seed else None)
    if commitment is None:
        return None
    try:
        return bool(table and nonce and seed) and verify_seed(bytes.fromhex(commitment), table, int(seed.group(1)),
                                                             bytes.fromhex(nonce))
    except ValueError:
        return False


def verified_mix(lines: list[str], table: str | None, seed: int | None) -> bool:
    """A game dealt from the mix of the server's seed and the players' contributions (docs/protocol.md section 16):
    the record's `# deal-server-seed` and `# deal-nonce` open its `# deal-commitment`; its `# dealt seed=N B=.. Y=..`
    names each contribution a seat revealed (the last `# reveal SEAT deal` of the exchange that dealt, which opens
    that seat's `# commit SEAT deal`; `-` for a seat that revealed none); and N, the start line's seed, is their mix."""
    from dungeon_twister.protocol import verify, verify_seed
    from dungeon_twister.protocol.deal import DEAL_PURPOSE, deal_seed

    commitment, nonce, server = (_comment(lines, name) for name in ("deal-commitment", "deal-nonce",
                                                                      "deal-server-seed"))
    commits: dict[str, bytes] = {}
    revealed: dict[str, str] = {}
    dealt = None
    for line in lines:
        words = line.split(" ")
        if line == "# deal-cancelled" or line.startswith("# deal-open "):
            commits, revealed = {}, {}  # a new exchange
        elif line.startswith("# commit ") and len(words) == 5 and words[3] == DEAL_PURPOSE:
            commits[words[2]] = _commitment(words[4])
        elif line.startswith("# reveal ") and len(words) == 6 and words[3] == DEAL_PURPOSE:
            seat, nonce_hex, choice = words[2], words[4], words[5]
            try:
                opened = seat in commits and verify(commits[seat], table or "", seat, DEAL_PURPOSE, choice,
                                                    bytes.fromhex(nonce_hex))
            except ValueError:  # (a nonce that is no hexadecimal: a traceback, review rv33)
                opened = False
            if opened:
                revealed[seat] = choice
        elif line.startswith("# dealt ") and dealt is None:
            dealt = dict(word.split("=", 1) for word in words[2:] if "=" in word)
            break
    try:
        if not (table and commitment and nonce and server and dealt and seed is not None):
            return False
        if not verify_seed(bytes.fromhex(commitment), table, int(server), bytes.fromhex(nonce)):
            return False
        parts = {seat: "" if dealt.get(seat) == "-" else dealt.get(seat) for seat in ("B", "Y")}
        if any(parts[seat] != revealed.get(seat, "") for seat in ("B", "Y")):
            return False
        return int(dealt["seed"]) == seed == deal_seed(table, int(server), parts["B"], parts["Y"])
    except (KeyError, ValueError, TypeError):
        return False


def _commitment(text: str) -> bytes:
    """The commitment of a record's `# commit` line; b"", which no reveal opens, if it is no hexadecimal (a hostile or
    damaged record's `# commit B team zz` was a ValueError's traceback out of `dt-client verify`: review rv33)."""
    try:
        return bytes.fromhex(text)
    except ValueError:
        return b""


def verified_rounds(text: str) -> tuple[int, list[str]]:
    """Check every `# reveal SEAT PURPOSE NONCE CHOICE` of a record against its `# commit SEAT PURPOSE HASH`, for
    the game `# table ID` names (the commitment of docs/protocol.md section 10). Without a table line, nothing."""
    from dungeon_twister.protocol import verify

    lines = text.splitlines()
    table = _comment(lines, "table")
    if table is None:
        return 0, []
    commits: dict[tuple[str, str], bytes] = {}
    verified, problems = 0, []
    for line in lines:
        words = line.split(" ", 5)
        if line.startswith("# commit ") and len(words) == 5:
            commits[(words[2], words[3])] = _commitment(words[4])
        elif line.startswith("# reveal ") and len(words) == 6:
            seat, purpose, nonce, choice = words[2], words[3], words[4], words[5]
            commitment = commits.get((seat, purpose))
            try:
                opened = commitment is not None and verify(commitment, table, seat, purpose, choice,
                                                           bytes.fromhex(nonce))
            except ValueError:
                opened = False
            if opened:
                verified += 1
            else:
                problems.append(f"{seat} {purpose}")
    return verified, problems


def applied_as_revealed(text: str, family: Family, applied: list, states: list, forced: set[int]) -> list[str]:
    """What is wrong with the secret choices a server's record applies (`applied`: its (RecordLine, events) in
    order; `states[k]`: the position before the k-th of them): each must be the choice its seat revealed for that
    purpose (`# reveal SEAT PURPOSE NONCE CHOICE`, read as the rules read it: the action line is its canonical
    text), or one the server laid for the seat (`forced`: the line numbers its `# timeout` and `# restart` comments
    account for), or the rules' fallback for a choice the rules refused (`# refused SEAT PURPOSE: ...`). The
    reveals' check alone passed a record whose line `B: team ...` was edited and its reveal left as it was (audit
    rp33): a secret choice other than the one committed to. Whether each reveal opens its commitment is
    `verified_rounds`'s."""
    from dungeon_twister.protocol import verify

    lines = text.splitlines()
    table = _comment(lines, "table") or ""
    commits: dict[tuple[str, str], bytes] = {}
    revealed: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    """(seat, purpose): the choices revealed and not yet applied, each with whether it is accounted for otherwise
    (the rules refused it since, or it does not open its commitment: `verified_rounds` says so already)."""
    comments = iter(enumerate(lines, 1))
    problems = []
    for index, (line, _events) in enumerate(applied):
        for number, raw in comments:  # the comments up to this line
            words = raw.split(" ", 5)
            if raw.startswith("# commit ") and len(words) == 5:
                commits[(words[2], words[3])] = _commitment(words[4])
            elif raw.startswith("# reveal ") and len(words) == 6:
                try:
                    commitment = commits.get((words[2], words[3]))
                    opened = commitment is not None and verify(commitment, table, words[2], words[3], words[5],
                                                               bytes.fromhex(words[4]))
                except ValueError:
                    opened = False
                revealed.setdefault((words[2], words[3]), []).append((words[5], not opened))
            elif raw.startswith("# refused ") and len(words) >= 4 and revealed.get((words[2], words[3].rstrip(":"))):
                key = (words[2], words[3].rstrip(":"))
                revealed[key][0] = (revealed[key][0][0], True)
            if number >= line.number:
                break
        seat = line.text[:1]
        purpose = family.secret_purpose(states[index], seat)
        if purpose is None or line.number in forced:
            continue
        pending = revealed.get((seat, purpose))
        if not pending:
            # TRANSLATORS: a problem `dt-client verify` finds in a record; {line} a number, {choice} an action line
            # as it is written ("B: combat +6"), {purpose} the secret choice's name (team, combat-3: as written)
            problems.append(_("line {line} ({choice}) is a secret choice for {purpose} that no reveal accounts "
                              "for").format(line=line.number, choice=line.text, purpose=purpose))
            continue
        choice, refused = pending.pop(0)
        if refused or _same_action(family, states[index], seat, choice, line.action):
            continue
        # TRANSLATORS: a problem `dt-client verify` finds in a record: the action applied is not the choice its
        # player revealed; {line} a number, {choice} an action line as written, {seat} Blue or Yellow
        problems.append(_("line {line} ({choice}) is not the choice {seat} revealed for {purpose}").format(
            line=line.number, choice=line.text, seat=seat_name(seat), purpose=purpose))
    return problems


def _same_action(family: Family, state, seat: str, choice: str, action) -> bool:
    """Whether the revealed text `choice` is the applied `action` (as the rules read it; or, for a choice committed
    in an older notation before a restart, as that notation meant it: DT-271)."""
    try:
        revealed = family.parse_action(choice, seat)
    except EngineError:
        return False
    if family.format_line(revealed) == family.format_line(action):
        return True
    legacy = family.legacy_action(state, revealed)
    return legacy is not None and family.format_line(legacy) == family.format_line(action)


ERROR_TEXT_LIMIT = 400
"""The characters of a record's error that are shown: the rules' refusal quotes the line, and a record's 50 MB line
was printed whole (audit rp33)."""


def record_error_text(error: EngineError) -> str:
    """A record's error (its line number first) in the language in use, cut to ERROR_TEXT_LIMIT characters."""
    from .state import engine_error_text

    text = engine_error_text(error)
    return text if len(text) <= ERROR_TEXT_LIMIT else text[:ERROR_TEXT_LIMIT] + "…"


def stopped_text(error: EngineError) -> str:
    """Why a replay ends before its record does (`Replay.stopped`), in the language in use."""
    # TRANSLATORS: at the end of a replay cut short; {error} the record's line and why the rules refuse it
    return _("The record goes on, but this version's rules refuse its next action: {error}. A game played before "
             "a rule was corrected, or a damaged record: shown up to there (dt-client verify checks it).").format(
        error=record_error_text(error))


RECORD_FILE_LIMIT = 16 * 1024 * 1024
"""The most bytes of a record file `load` reads: a server's records are at most 900,000 characters (`record`), a
long game's some 100 KB; a 300 MB file was read whole (8 s, 600 MB of memory) and a larger one would fill the
memory (audit rp33)."""


class NotARecord(Exception):
    """A file that is no game record at all (not text, far too large): its message says why."""


def load(path: str, partial: bool = False) -> Replay:
    """The replay of a record file (`partial`: as `Replay.of`); OSError if it cannot be read, NotARecord if it is no
    text of a record's size, EngineError if it is not a valid record."""
    with open(path, "rb") as handle:
        data = handle.read(RECORD_FILE_LIMIT + 1)
    if len(data) > RECORD_FILE_LIMIT:
        # TRANSLATORS: why a file is no game record; {limit} a number of megabytes
        raise NotARecord(_("it is larger than any game record ({limit} MB at most)").format(
            limit=RECORD_FILE_LIMIT // (1024 * 1024)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:  # (a binary file was a traceback: audit rp33)
        before = data[:error.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8")) + 1  # (in characters, as an editor's)
        # TRANSLATORS: why a file is no game record; {byte} a byte's value such as 0xff, {line} and {column} numbers
        raise NotARecord(_("it is not text (UTF-8): byte {byte} at line {line}, column {column}").format(
            byte=f"0x{data[error.start]:02x}", line=line, column=column)) from None
    return Replay.of(text, partial)


class NoRecord(Exception):
    """The server would not give the record (its message says why)."""


RECORD_SECONDS = 30
"""How long `fetch_record` waits for the record once connected: a server that accepted and said nothing (or only
pinged) held `dt-client replay TABLE --server` and `verify` until Ctrl-C (red team rt25); a server sends it at once."""


async def fetch_record(connect, host: str, port: int, table: str, join_code: str | None = None) -> str:
    """The record of a finished game kept by a server (`get_record`), through `connect(host, port)` (TLS with the
    pinned certificate, or plain TCP): a short spectator connection under a throwaway name; NoRecord if none came
    within RECORD_SECONDS."""
    import trio

    from dungeon_twister.protocol import SpectatorConnection

    stream = await connect(host, port)
    conn = SpectatorConnection()
    async with stream:
        with trio.move_on_after(RECORD_SECONDS):
            return await _record_from(stream, conn, table, join_code)
    # TRANSLATORS: why `dt-client replay TABLE --server` got no record; {seconds} a number
    raise NoRecord(_("the server sent no record within {seconds} s").format(seconds=RECORD_SECONDS))


async def _record_from(stream, conn, table: str, join_code: str | None) -> str:
    """`fetch_record`'s exchange on an open connection."""
    import secrets

    from dungeon_twister.protocol import Error, GameRecord, GetRecord, ProtocolError, Refused, Welcome

    from .session import SOFTWARE
    from .state import server_text

    await stream.send_all(conn.send_hello(f"replay-{secrets.token_hex(4)}", SOFTWARE))
    while True:
        data = await stream.receive_some(65536)
        if not data:
            raise NoRecord(_("the server closed the connection"))
        conn.receive_data(data)
        while (event := conn.next_event()) is not None:
            if isinstance(event, GameRecord):
                return event.text
            if isinstance(event, Welcome):
                await stream.send_all(conn.send(GetRecord(table, join_code)))
            elif isinstance(event, Error):
                raise NoRecord(server_text(event.message, event.template, event.values))
            elif isinstance(event, ProtocolError):
                raise NoRecord(event.message)
            elif isinstance(event, Refused):
                raise NoRecord(server_text(event.reason, event.template, event.values))


def panel_width(columns: int) -> int:
    """The columns the replay's side panel wraps its text to on a terminal `columns` wide: beside the board (and
    its separator) on a wide one, the whole width on a narrow one, where F2 shows the panel instead of the board
    (as in a game, client/layout.py); the terminal's last column stays empty."""
    from .layout import BOARD_WIDTH, WIDE_SCREEN

    return columns - BOARD_WIDTH - 2 if columns >= WIDE_SCREEN else columns - 1


BOARD_SCROLL_STEP = 3
"""The board's lines that Up or Down scroll in the replay (a rank is two lines)."""


def run_replay(replay: Replay, *, input=None, output=None) -> None:
    """The replay on the screen: the board on the left, the action and its events on the right; on a narrow
    terminal, the board or (F2) the panel."""
    from prompt_toolkit.application import Application, get_app
    from prompt_toolkit.data_structures import Point
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import ConditionalContainer, DynamicContainer, HSplit, Layout, VSplit, Window
    from prompt_toolkit.layout.controls import FormattedTextControl
    from prompt_toolkit.layout.dimension import Dimension
    from prompt_toolkit.utils import get_cwidth

    from .keys import ignore_mouse_reports
    from .layout import BOARD_WIDTH, WIDE_SCREEN
    from .printable import printable_fragments
    from .style import STYLE
    from .wrap import word_wrap

    def columns() -> int:
        return get_app().output.get_size().columns

    def board():
        out = []
        for line in replay.screens.render(replay.view(), replay.trails()):
            out += line + [("", "\n")]
        return out[:-1]

    def panel():
        return word_wrap(printable_fragments([("", "\n".join(replay.panel()))]), panel_width(columns()))

    def title():
        name = _("Dungeon Twister Online · replay")
        hints = []
        if columns() < WIDE_SCREEN:
            hints.append(_("F2 board/panel"))
        if board_hidden() > 0 and (columns() >= WIDE_SCREEN or not showing_panel[0]):
            # TRANSLATORS: in the replay's title on a terminal shorter than the board: the arrow keys scroll it
            hints.append(_("↑/↓ board"))
        text = " " + " · ".join([name, *hints])
        if get_cwidth(text) >= columns():  # (60 x 20 cut the scroll hint to "↑/↓ boar": audit rp33) the keys first
            text = " " + " · ".join([name.rsplit(" · ", 1)[-1], *hints])
        return [("class:hints", text)]

    showing_panel = [False]
    """On a narrow terminal: the panel instead of the board."""
    board_top = [0]
    """The board's first line on the screen: on a terminal shorter than the board, Up and Down scroll it (an
    80 x 24 terminal showed its ranks 21 to 12 and nothing below them, Blue's half: play-test pt29 F17)."""

    def board_hidden() -> int:
        """How many of the board's lines do not fit under the title."""
        lines = len(replay.screens.render(replay.view(), replay.trails()))
        return lines - max(1, get_app().output.get_size().rows - 1)

    def scroll_board(delta: int) -> None:
        board_top[0] = max(0, min(board_top[0] + delta, board_hidden()))

    keys = KeyBindings()
    moves = {"right": 1, " ": 1, "n": 1, "left": -1, "p": -1, "pagedown": 10, "pageup": -10}
    for key, delta in moves.items():
        keys.add(key)(lambda event, delta=delta: replay.go(delta))
    keys.add("home")(lambda event: replay.go_to(0))
    keys.add("end")(lambda event: replay.go_to(len(replay.steps)))
    keys.add("f2")(lambda event: showing_panel.__setitem__(0, not showing_panel[0]))
    keys.add("up")(lambda event: scroll_board(-BOARD_SCROLL_STEP))
    keys.add("down")(lambda event: scroll_board(BOARD_SCROLL_STEP))
    for key in ("q", "c-c", "c-d", "escape"):
        keys.add(key)(lambda event: event.app.exit())
    ignore_mouse_reports(keys)
    board_window = Window(FormattedTextControl(board, get_cursor_position=lambda: Point(0, board_top[0])),
                          width=Dimension(preferred=BOARD_WIDTH, max=BOARD_WIDTH),
                          get_vertical_scroll=lambda window: board_top[0], always_hide_cursor=True)
    panel_window = Window(FormattedTextControl(panel), wrap_lines=True)
    side_by_side = VSplit([board_window, Window(width=1, char="│", style="class:dim"), panel_window])
    wide = Condition(lambda: columns() >= WIDE_SCREEN)
    layout = Layout(HSplit([
        # TRANSLATORS: the title of the replay screen
        Window(FormattedTextControl(title), height=1),
        ConditionalContainer(side_by_side, filter=wide),
        ConditionalContainer(DynamicContainer(lambda: panel_window if showing_panel[0] else board_window),
                             filter=~wide),
    ]))
    Application(layout=layout, key_bindings=keys, style=STYLE, full_screen=True, input=input,
                output=output).run()


__all__ = ["EngineError", "NotARecord", "Replay", "Step", "load", "run_replay"]
