"""What the client does with each event from the server: update the UI state, answer when the protocol says so."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from dungeon_twister.protocol import (
    ERROR_CODES,
    Announcement,
    Games,
    ActionOk,
    ActionRefused,
    ChatMessage,
    Error,
    Event,
    GameOver,
    Joined,
    Left,
    OpponentBack,
    OpponentCommit,
    OpponentLeft,
    OpponentReveal,
    Ping,
    Pong,
    Ratings,
    ProtocolError,
    Refused,
    Resume,
    RevealMismatch,
    ServerClosing,
    Snapshot,
    TableClosed,
    TableCreated,
    TableEvent,
    Tables,
    TableUpdate,
    rematch_options,
    Timer,
    Welcome,
)

from dungeon_twister.protocol.deal import DEAL_PURPOSE
from dungeon_twister.protocol.names import name_key
from prompt_toolkit.utils import get_cwidth

from . import contribution, secret_choice
from .describe import UNPLAYED, YOURS, reason_text
from .fairness import check_contributions
from .games import screens
from .held import Told, state_dir
from .i18n import N_, _
from .identity import KEY_FILE
from .lobby import options_summary
from .help import goal_box
from .names import GAMES_PAGE, MAX_LISTED_TABLES, joined, other_seat, said, scenario_intro, score, seat_name
from .panel import who_places
from .ports import SessionPort as Session
from .state import RATINGS_SEARCHED, Refusal, resigned_text, server_text
from .wrap import Fitted, cell, lay_out


def handle(session: Session, event: Event) -> None:
    if isinstance(event, ProtocolError):
        _protocol_error(session, event)
    elif isinstance(event, RevealMismatch):
        secret_choice.on_mismatch(session, event)
        if event.purpose != DEAL_PURPOSE:
            session.opponent_revealed(event.purpose)
    else:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            try:
                handler(session, event)
            except Exception as error:  # (not MemoryError's kin alone: anything a map of the server's can cause)
                _unreadable(session, event, error)


def _unreadable(session: Session, message, error: Exception) -> None:
    """A message of the server this client could not handle: a view or event whose fields are not of the types
    docs/protocol.md gives them (`"rooms": 5`, `"table": []`), from a server of another version, a faulty or a
    hostile one, or a bug of ours. It is what the protocol makes of a malformed message (section 7): dropped,
    answered with a non-fatal bad_field and said; the connection goes on. It ended the networking, and with it the
    client, with a traceback (red team rt25: any map the server chose did it). The screens draw what they can
    (layout.py).

    What the handler changed before it failed stays: a table event's handler that replaced the view and failed
    before the rest (the event number a resume reports, the turn's clock, a secret choice's state) left the client
    out of step with its table until the next snapshot (review rv25). So a table event that fails asks for one
    (`resume` with `snapshot`, section 8), once until a snapshot has been handled, the request refused (its rate
    limit) or the table left: a snapshot that fails too is not asked again, or a server whose views this client
    cannot read would be asked every 2 seconds."""
    _protocol_error(session, ProtocolError(
        "bad_field", f"{message.spec.name}: {type(error).__name__}: {str(error)[:200]}", fault="remote"))
    connection = session.connection
    if (isinstance(message, TableEvent) and not session.state.resync_asked and connection is not None
            and connection.table is not None and connection.table == message.table):
        session.state.resync_asked = True
        session.send(Resume(connection.table, connection.last_event, snapshot=True))


def _welcome(session: Session, message: Welcome) -> None:
    state = session.state
    state.connected = True
    state.games_asked = False  # (a question of the connection before: no answer will come)
    link = f" · {state.link_note}" if state.link_note else ""  # what TLS said of this connection (client/tls.py)
    state.link_note = None
    session.proving = False  # (set again by `prove`: a welcome with a challenge)
    state.say(_("connected to {server} {version} as {name}").format(
        server=message.server.name, version=message.server.version, name=state.name) + link
        # TRANSLATORS: after "connected to ...": a seat held under another name; --name {name} is typed as it is
        + "".join(" · " + _("a seat at table {table} is kept for you as {name}: start dt-client again with "
                            "--name {name} to take it back").format(table=table, name=name)
                  for name, table in session.kept_elsewhere()))
    if message.challenge is not None:  # section 18: the proof of our key, before anything else
        session.prove(message.challenge, message.session)
    session.after_welcome()


def _refused(session: Session, message: Refused) -> None:
    reason = server_text(message.reason or message.code, message.template, message.values)
    refusal = _("the server refused us: {reason} ({code})").format(reason=reason, code=message.code)
    if session.refused(message.code, refusal, in_use=message.template in (None, IN_USE)):
        return
    if message.template == IN_USE:  # a play-test's own second client (or one frozen, not yet timed out)
        # TRANSLATORS: after "the name ... is already used on this server"; `reconnect` is typed as it is
        refusal += " · " + _("if it is yours, another dt-client has it, or had it until a moment ago (the server "
                             "notices within a minute): close that one, then `reconnect`")
    elif message.template == SPELLED and isinstance((message.values or {}).get("spelling"), str):
        # TRANSLATORS: after "your key's name is spelled 'Ann' on this server, not 'ann'"
        refusal += " · " + _("`quit`, then start dt-client again with --name {spelling}").format(
            spelling=message.values["spelling"])
    elif message.template == ANOTHER_KEY:  # its owner on another computer: the README's way (play-test pt27 F13)
        # TRANSLATORS: after "the name ... belongs to another key on this server"; identity.key is a file's name,
        # {directory} a folder, `quit` and --name NAME are typed as they are
        refusal += " · " + _("if the name is yours, copy {file} from the computer that plays it into {directory}, "
                             "then start dt-client again; else choose another name: `quit`, then start dt-client "
                             "again with --name NAME").format(file=KEY_FILE, directory=state_dir())
    elif message.template == TOO_MANY_NAMES:  # (another name would be refused alike: review rv29)
        pass
    elif message.code in ("name_taken", "bad_name"):  # the name is the connection's: another needs a new start
        # TRANSLATORS: after a refused name; `quit` and `--name NAME` are typed as they are
        refusal += " · " + _("choose another name: `quit`, then start dt-client again with --name NAME")
    session.state.say(refusal)


IN_USE = "the name {name} is already used on this server"
SPELLED = "your key's name is spelled {spelling} on this server, not {name}"
"""The templates of two `name_taken` refusals (server/session.py) whose advice is not to choose another name."""
TOO_MANY_NAMES = ("too many new names from your address lately: try again in {minutes} min, or connect with a name "
                  "you have used here before")
"""The template of the `bad_name` refusal of server/session.py's limit on new names: another new name would be
refused alike, so no advice to choose one."""
ANOTHER_KEY = "the name {name} belongs to another key on this server"
"""The template of the `name_taken` refusal of a name bound to another key: its owner copies his key."""



def _tables(session: Session, message: Tables) -> None:
    """A page of the table list: the first replaces the list, the next ones extend it, and while the server says
    `more`, the next page is asked for."""
    state = session.state
    session.proof_taken()
    session.lobby_listed()  # (after the server's move to a seat kept for us, if any: a waiting `create` goes or not)
    fresh = session.tables_offset == 0
    state.tables = list(message.tables) if fresh else state.tables + list(message.tables)
    if message.more and message.tables and len(state.tables) < MAX_LISTED_TABLES:
        session.list_tables(offset=len(state.tables))
    else:
        session.tables_listed()


def _check_deal(session: Session) -> None:
    """Once the game is over and the seed revealed: the deal checked, once (docs/protocol.md section 16)."""
    state = session.state
    if state.deal_checked or not state.view:
        return
    build = state.secrets.get("build")
    builds = [] if build is None or build.opponent_choice is None else sorted(
        [(state.seat, build.choice), (other_seat(state.seat), build.opponent_choice)])
    # every room pick seen (one per pair laid), or none: a client that came in during the draft cannot replay it
    picks = state.room_picks if len(state.room_picks) == len(state.view.get("rooms") or ()) // 2 else []
    checked = screens(state.view).check_deal(state.view, picks + builds)
    table = state.view.get("table") or {}
    if checked is None and state.spectating and table.get("teams") == "free" and "seed" in table:
        state.deal_checked = True  # the builds say which rooms, and only the players see both (DT-120)
        state.log.append(_("the seed is revealed: in a free team building only the players, who see both builds, "
                           "can check the deal"))
        return
    if checked is None:
        return
    state.deal_checked = True
    mine = (state.seat, state.deal_mine) if state.seat and state.deal_mine else None
    own = check_contributions(state.view, mine, state.deal_theirs)
    if own is not None and checked[0]:
        # the language's list separator (French: a no-break space before the semicolon; play-test i18n32 read
        # "... là où elle l'a distribuée; votre contribution ...")
        checked = own if not own[0] else (True, joined((checked[1], own[1])))
    fair, text = checked
    state.log.append(text)
    if not fair:
        state.alert = text


def _ratings(session: Session, message: Ratings) -> None:
    """The leaderboard, shown in the help pane (Esc closes it)."""
    state = session.state
    wanted, state.ratings_for = state.ratings_for, None
    if not message.players:
        session.state.help_text = _("No rated game yet: a board game between two people is rated when it ends (the "
                                    "Card Game is not rated).")
        return
    # TRANSLATORS: a column header of the ratings table (a player's name)
    player = _("player")
    # TRANSLATORS: a column header of the ratings table (a Glicko-2 rating, a number), at most 6 letters
    rating = _("rating")
    # TRANSLATORS: a column header of the ratings table (how many rated games a player has played)
    games = _("games")
    ranked = list(enumerate(message.players, 1))
    if wanted is not None:  # `ratings NAME`: that player's line (names compared as the server keys them)
        ranked = [(rank, p) for rank, p in ranked if name_key(p.name) == name_key(wanted)]
        if not ranked:
            if len(message.players) < RATINGS_SEARCHED:  # (the server sent fewer than asked: all it has)
                state.help_text = _("{name} has no rated game on this server yet").format(name=wanted)
            else:
                state.help_text = _("{name} is not among the {count} best rated players").format(
                    name=wanted, count=len(message.players))
            return
    lines = [_("Ratings (Glicko-2; board games between two people are rated)"), "",
             f"    {'#':>3}  {player:<32} {rating:>6}  {'±RD':>5}  {games}"]
    mine = name_key(state.name)
    for rank, player in ranked:  # (your own line marked: a play-test looked for it)
        mark = " ► " if name_key(player.name) == mine else "   "
        lines.append(f"{mark} {rank:>3}  {cell(player.name, 32)} {player.rating:>6}  {player.rd:>5}  {player.games:>5}")
    # TRANSLATORS: under the ratings table: what its ±RD column is (Glicko-2's rating deviation)
    lines += ["", _("±RD: how sure the rating is; the smaller, the surer (it shrinks as a player plays rated games)")]
    state.help_text = "\n".join(lines)


def _games(session: Session, message: Games) -> None:
    """A page of the games finished on the server (`games`), shown in the help pane (Esc closes it)."""
    state = session.state
    state.games_asked = False
    if message.offset is not None:  # (which question this answers: `games 2` then `games 3` typed quickly showed
        state.games_page = message.offset // GAMES_PAGE + 1  # page 2 as "page 3": review rv27)
    pages = max(1, -(-message.total // GAMES_PAGE))
    if not message.games:
        # (none finished yet, or the admin let the old ones go: dt-server prune)
        state.help_text = (_("This server keeps no finished game (a private table's game is its players' alone).")
                           if not message.total else
                           _("There is no page {page}: {pages} in all.").format(page=state.games_page, pages=pages))
        return
    # TRANSLATORS: the title of the finished games' list (`games`); {page} of {pages}: its pages
    lines = [_("Games finished on this server, the last first (page {page} of {pages})").format(
        page=state.games_page, pages=pages), ""]
    # TRANSLATORS: column headers of the finished games' list: a table's id, its options (the set, the scenario,
    # timers...), when its game ended (a date and a time, UTC), and how it ended ("Yellow wins 5-2 (target reached)")
    header = (_("table"), _("options"), _("ended (UTC)"), seat_name("B"), seat_name("Y"), _("result"))
    rows = []
    for game in message.games:
        vp = {"B": game.vp_blue, "Y": game.vp_yellow}
        reason = reason_text(game.reason)
        if game.winner:
            # TRANSLATORS: a finished game's result in the games' list: {seat} a colour, {score} like 5-2
            result = _("{seat} wins {score} ({reason})").format(seat=seat_name(game.winner),
                                                                score=score(vp, game.winner), reason=reason)
        elif game.reason in UNPLAYED:
            result = _("no winner ({reason})").format(reason=reason)
        else:
            result = _("draw {score} ({reason})").format(score=score(vp), reason=reason)
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(game.finished))
        flags = options_summary(game.options)[0] or "-"  # (a player looks for "my Prison game": review rv27)
        rows.append((game.table, flags, when, game.blue or "-", game.yellow or "-", result))
    head = "\n".join(lines)
    lines = []
    lines.append("")
    if state.server and not state.local:
        # TRANSLATORS: under the finished games' list; {line} is a command line, typed as it is
        lines.append(_("{line} steps through one of them").format(
            line=f"dt-client replay TABLE --server {state.server}"))
    if state.games_page < pages:
        # TRANSLATORS: under the finished games' list; `games {page}` is a command, typed as it is
        lines.append(_("`games {page}` lists the next ones").format(page=state.games_page + 1))
    foot = "\n".join(lines)
    state.help_text = Fitted(lambda width: "\n".join([lay_out(head, width), *games_table(header, rows, width),
                                                      lay_out(foot, width)]))


GAMES_COLUMNS = (18, 22, 16, 16, 16)
"""The finished games' columns on a wide terminal (table, options, ended, Blue, Yellow), the result after them."""
GAMES_NARROWEST = (18, 10, 16, 8, 8)
"""How far each column gives way to fit a narrow terminal: the options first, then the players' names (the table's
id only to its longest, since it is what `dt-client replay` takes)."""
GAMES_BESIDE = (18, 10, 16, 12, 12)
"""How far they give way to keep the results beside them; past that, the results go below and the names give way
more (`GAMES_NARROWEST`)."""


def games_table(header: tuple[str, ...], rows: list[tuple[str, ...]], width: int | None) -> list[str]:
    """The finished games' header and rows in `width` columns (None: the wide columns): a row on one line where it
    fits, its options then its names cut with a "…" (`cell`) to make it fit; where even that leaves the result no
    room, each result on a line of its own below its row. At 80 columns every row wrapped, its columns out of line
    (play-test pt29 F16)."""
    widths = list(GAMES_COLUMNS)
    longest = max(get_cwidth(row[5]) for row in (header, *rows))
    if width is not None:
        def taken() -> int:  # the row's indent, its columns and the spaces after them
            return 2 + sum(widths) + len(widths)
        for result, narrowest in ((longest, GAMES_BESIDE), (0, GAMES_NARROWEST)):  # the result beside, else below
            widths = list(GAMES_COLUMNS)
            widths[0] = min(widths[0], max(get_cwidth(row[0]) for row in (header, *rows)))  # (ids are never cut)
            for column in (1, 3, 4):  # the options, then the names, give way
                widths[column] -= max(0, min(widths[column] - narrowest[column], taken() + result - width))
            if taken() + result <= width:
                break
        beside = taken() + longest <= width
        if taken() > width:  # (on 60 columns: the dates without their year)
            widths[2] -= 5
            rows = [(*row[:2], row[2][5:], *row[3:]) for row in rows]
    else:
        beside = True
    out = []
    for row in (header, *rows):
        line = "  " + " ".join(cell(text, column) for text, column in zip(row, widths)) + " "
        out.append(line + row[5] if beside else line.rstrip())
        if not beside and row is not header:
            out.append(lay_out("      " + row[5], width))
    return out


def _table_update(session: Session, message: TableUpdate) -> None:
    """Feature "table_updates": a table new or changed takes its line's place (or is added, within the bound)."""
    tables = session.state.tables
    index = next((i for i, info in enumerate(tables) if info.table == message.info.table), None)
    if index is not None:
        tables[index] = message.info
    elif len(tables) < MAX_LISTED_TABLES:
        tables.append(message.info)


def _table_closed(session: Session, message: TableClosed) -> None:
    session.state.tables = [info for info in session.state.tables if info.table != message.table]


def _table_created(session: Session, message: TableCreated) -> None:
    state = session.state
    state.join_code = message.join_code
    if session.creating is None:  # (the server moves us: a `create` waiting for the list is not sent, lobby_listed)
        session.unasked = message.table
    if state.rematch_to == message.table:  # (the rematch's: said when we sit there, `_joined`)
        return
    if session.creating is None:  # not ours: the server takes us to a seat kept for us (said at its `joined`)
        state.taken_to = message.table
        return
    session.made, session.creating = (message.table, session.creating), None
    if message.join_code:
        state.say(_("table {table} created (private: join code {code})").format(table=message.table,
                                                                               code=message.join_code))
    else:
        state.say(_("table {table} created").format(table=message.table))
    if session.setup is not None:
        session.join(message.table, session.setup.seat, message.join_code)


def _kept_lines(state, table) -> None:
    """At the new table of a kept seat (`seat_kept`), the last lines of the aborted game's log above the line that
    says why he is here: they went with their table (play-test pt31), and said how it ended (who left, when)."""
    left, lines = state.left_log
    if left != table or not lines or not state.log:
        return
    told = state.log.pop()
    # TRANSLATORS: in the log of the new table of a kept seat, above the last lines of the table left ({table}: its id)
    state.log.extend([_("the last lines at table {table}:").format(table=table), *lines, told])
    state.left_log = (None, [])


def _joined(session: Session, message: Joined) -> None:
    state = session.state
    session.proof_taken()
    if session.joined(message):
        restored = session.restored_snapshot()
        if restored is not None:  # a new process: the view the last one stopped at, the events since to follow
            snapshot, came_in = restored
            _snapshot(session, snapshot, the_servers=False)
            state.came_in = came_in
        state.say(_("back at table {table}").format(table=message.table))
        if message.restored and not state.local:  # (a play-test's players read only "Yellow disconnected" / "is
            # back": pt28; not `dt-client play`'s own server, started again for a game the player left and came back
            # to, where it read as a failure: pt29 F24)
            # TRANSLATORS: in the log when a seat or a watch is taken back after the server restored the table
            # from its store (it was started again, or could not save the game for a while)
            state.log.append(_("the server restored this game from what it had saved (it was started again, or "
                               "could not save for a while): the game goes on from its last saved step, and its "
                               "clocks start afresh (DT-090)"))
        return
    state.enter_table(message.table, message.seat)
    session.early_commits.clear()
    rematch, state.rematch_to = state.rematch_to == message.table, None
    taken, state.taken_to = state.taken_to == message.table, None
    code = _(" (private: join code {code})").format(code=state.join_code) if state.join_code else ""
    if taken and message.seat:  # (docs/protocol.md section 6, `rematch`: back after a cut, or a restart)
        # TRANSLATORS: {table} the table's id; {seat} Blue or Yellow; {code} " (private: join code ...)" or ""
        line = _("your seat at table {table} was kept for you: the server took you back to it{code}, you play "
                 "{seat}").format(table=message.table, code=code, seat=seat_name(message.seat))
        state.say(line)
        state.log.append(line)
    elif rematch and message.seat:
        # TRANSLATORS: {table} the new table's id; {seat} Blue or Yellow; {code} " (private: join code ...)" or ""
        line = _("rematch at table {table}{code}: you play {seat} this time").format(
            table=message.table, code=code, seat=seat_name(message.seat))
        state.say(line)
        state.log.append(line)  # (the game's first notices soon take the bar: pt30 by hand)
    elif message.seat:
        state.say(_("joined table {table} as {seat}").format(table=message.table, seat=seat_name(message.seat)))
    else:
        state.say(_("joined table {table} as a spectator").format(table=message.table))
    if session.unmade == message.table:  # (a `create` the move to this kept seat stopped)
        session.tell_unmade(message.table)
    if state.carried:  # why the seat we had is gone, before this table's own lines (play-test pt23), and where we are
        state.log.append(state.carried)
        state.log.append(_("your key took you back to table {table}: that copy of the server's data has you "
                           "seated there").format(table=message.table))
        state.carried = ""
    setup, session.setup = session.setup, None
    if taken:  # (the server's move to a kept seat, not the table a setup was for: that table seats its own bot)
        setup = None
    if setup is not None and setup.bot is not None and message.seat is not None:
        session.seat_bot(other_seat(message.seat), setup.bot, message.table)


def _left(session: Session, message: Left) -> None:
    state = session.state
    # (the game was running when we left: Session.leave; its end, published before `left`, may have come since)
    resigned = session.resigning == message.table and state.seat is not None
    winner = other_seat(state.seat) if resigned else None
    result = state.result or {}
    # the game's end and its ratings came before `left` (the table's last events): said with it, as the log that
    # told them goes with the table (a play-test's resigner learnt his new rating only from `ratings`)
    rated = next((line for line in reversed(state.log) if isinstance(line, Told)
                  and line.event.get("kind") == "ratings"), None)
    session.resigning = None
    session.seat_lost("left")
    if state.rematch_to is not None:  # the server takes us to the rematch's table (`rematch`): no lobby between
        state.leave_table()
        return
    if resigned and result.get("reason") not in UNPLAYED and state.game_over:
        # The finished game's screen stays, as for the player who stays: its end (the reveals the game held back
        # until then, a free build's, and the deal's check, which the resigner's client made and whose lines went
        # with the table: play-test pt25 F15), its panel's replay line; `leave` then leaves it here (Session.leave:
        # the server has us in its lobby already).
        state.table_gone = True
        # TRANSLATORS: after `leave` in a running game (confirmed): the game is lost; `leave` is the command
        line = _("you resigned at table {table}, {seat} wins · `leave` goes back to the lobby").format(
            table=message.table, seat=seat_name(winner))
        if state.may_rematch:  # (against a bot: commands.py makes it)
            line += " · " + _("`rematch` plays again, the colours swapped")
        state.say(" · ".join(str(part) for part in (line, rated) if part))
        return
    state.leave_table()
    if resigned and result.get("reason") in UNPLAYED:
        # TRANSLATORS: after `leave` before the game's first turn (confirmed): {reason} says why nobody won
        state.say(_("left table {table}: the game ends without a winner ({reason})").format(
            table=message.table, reason=reason_text(result.get("reason"))))
    elif resigned:  # (no game_over came: the table closed under us)
        # TRANSLATORS: after `leave` in a running game (confirmed): the game is lost
        line = _("left table {table}: you resigned, {seat} wins").format(table=message.table, seat=seat_name(winner))
        state.say(" · ".join(str(part) for part in (line, rated) if part))
    else:
        state.say(_("left table {table}").format(table=message.table))
    session.list_tables()


def _chat(session: Session, message: ChatMessage) -> None:
    sender = message.sender
    if name_key(sender) in session.state.ignored:  # (`ignore NAME`: a public server's rude player, play-test ad29)
        return
    seated = ((session.state.view or {}).get("seats") or {}).values()
    if message.table is not None and session.state.view is not None and sender not in seated:
        # TRANSLATORS: a chat line's sender at a table who is not one of its players
        sender = _("{name} (watching)").format(name=sender)
    # TRANSLATORS: a chat line: {name} who wrote it, {text} his words as he typed them (French puts a no-break
    # space before the colon; the chat was glued in code, which no translation could change: i18n32)
    session.state.chat.append(_("{name}: {text}").format(name=sender, text=message.text))


def _snapshot(session: Session, message: Snapshot, the_servers: bool = True) -> None:
    """A snapshot; not `the_servers`: the one a new process kept on disk, which says nothing of what the server
    holds now."""
    went_back = the_servers and _went_back(session.state.view, message)
    session.state.view_came()  # the view the next action starts from (take_back_moves), as a view event is
    session.state.view_of_request = False
    session.state.view = message.view
    # events before it are not in the log: the panel says so, once the game has begun (before it, the events were
    # the table's joins: a creator was told he had missed something, a play-test found)
    session.state.came_in = message.n > 0 and isinstance(message.view, dict) and bool(message.view.get("started"))
    if went_back:  # the log's lines after the server's point no longer stand, and which they are is not known
        # TRANSLATORS: after a server's restart, when its game is earlier than what the client showed
        session.state.forget_history(_("the server's game went back to an earlier point (its store was restored "
                                       "from a copy): what this log showed after that point no longer stands"))
    table = message.view.get("table") if isinstance(message.view, dict) else None
    asked = table.get("asked") if isinstance(table, dict) else None
    state = session.state
    if state.takeback_asked or state.draw_offered or state.question:  # the snapshot says what is pending now
        state.takeback_asked = state.draw_offered = None  # (none after a restart of the server, say)
        state.question = ""
        state.we_asked.clear()
    rematches = []
    for event in (asked if isinstance(asked, list) else ()):  # a request pending: as if its event came now
        if isinstance(event, dict) and event.get("kind") in ("takeback_asked", "draw_offered"):
            _questions(session, event, None)
        elif isinstance(event, dict) and event.get("kind") == "rematch_offered":
            rematches.append(event)
    session.view_changed(message.n, message.view)
    if the_servers:
        secret_choice.commit_again_if_lost(session, message.view)
        secret_choice.on_snapshot(session, message.view)
    session.state.note_turn(session.clock())
    contribution.on_view(session)
    _check_deal(session)
    _over_in_view(session, message.view)
    for event in rematches:  # (after the view's "game over", which a client back after a restart is told first)
        _rematch(session, event)
    session.state.resync_asked = False  # handled whole: a table event that fails may ask for another


def _went_back(before: dict | None, message: Snapshot) -> bool:
    """The server's snapshot has fewer steps than the view we had of its table (the connection takes no other
    table's while we are at one): the server was restored from an older copy of its store (`steps` never
    decreases otherwise: docs/protocol.md, sections 13 and 20)."""
    if not isinstance(before, dict) or not isinstance(message.view, dict):
        return False
    had, has = before.get("steps"), message.view.get("steps")
    return type(had) is int and type(has) is int and has < had


REQUESTS = ("takeback_asked", "takeback_declined", "draw_offered", "draw_declined")
"""A takeback request, a draw offer and their refusals: the server publishes a view with each (its table.asked)."""
REMATCH_EVENTS = ("rematch_offered", "rematch_lapsed", "rematch")
"""A finished game's rematch (docs/protocol.md section 6, `rematch`): said by `_rematch`."""
ASIDES = (None, "chat", *REQUESTS, "timeout", *REMATCH_EVENTS, "idle_warning")
"""Table events that leave the game as it was: a takeback request or a draw offer pending outlives them (the
server drops both with any change of the game, server/play.py). A `timeout` is one: a secret choice made for a
late seat changes nothing until the round is complete, and a turn's timeout comes with the events that do; so is an
`idle_warning` (the game waits on as it was)."""


def _questions(session: Session, event: dict, line: str | None) -> None:
    """What the opponent asks of us (a takeback, DT-224; a draw, DT-228), which `yes` or `no` answers, and what
    ends it: his answer to ours, or the game moving on."""
    state, kind = session.state, event.get("kind")
    mine = bool(state.seat) and event.get("seat") == state.seat
    by_opponent = bool(state.seat) and event.get("seat") not in (None, state.seat)
    if kind in ("takeback_asked", "draw_offered") and mine:
        # ours, put to the opponent (a refused one never comes here: only its error is shown)
        state.question = (_("takeback asked: waiting for the answer") if kind == "takeback_asked"
                          else _("draw offered: waiting for the answer"))
        state.we_asked.add("takeback" if kind == "takeback_asked" else "draw")
        state.say(state.question)
    elif kind == "takeback_asked" and by_opponent:
        state.takeback_asked, state.asked_last = event.get("seat"), "takeback"
        _ours_lapses(state)
        # TRANSLATORS: yes / no are typed as they are; ja/nein, oui/non, sí/no, sì/no work too (commands.ANSWERS)
        state.question = _("{seat} asks to take back {action}: type yes or no").format(
            seat=seat_name(event.get("seat")), action=repr(event.get("action")))
        state.say(state.question)
    elif kind == "draw_offered" and by_opponent:
        state.draw_offered, state.asked_last = event.get("seat"), "draw"
        _ours_lapses(state)
        # TRANSLATORS: yes / no are typed as they are; ja/nein, oui/non, sí/no, sì/no work too (commands.ANSWERS)
        state.question = _("{seat} offers a draw: type yes or no").format(seat=seat_name(event.get("seat")))
        state.say(state.question)
    elif kind in ("takeback_declined", "draw_declined"):
        if kind == "takeback_declined":
            state.takeback_asked = None
        else:
            state.draw_offered = None
        state.we_asked.discard("takeback" if kind == "takeback_declined" else "draw")
        state.question = ""
        if line:
            state.say(line)  # in place of "waiting for the answer" or "type yes or no"
            state.event_notice = line
    elif kind not in ASIDES:  # answered by taking it back, or the game moved on: what was asked lapsed
        if kind not in ("taken_back", "game_over"):
            _lapsed(state)
        state.takeback_asked = state.draw_offered = None
        state.we_asked.clear()
        state.question = ""
        if state.event_notice and state.notice == state.event_notice:
            state.say("")  # a takeback or a declined request of before: the game went on from it
        state.event_notice = ""
        if kind == "taken_back":
            if line:
                state.say(line)
                state.event_notice = line
            state.take_back_moves()
            state.trails.pop(str(event.get("seat")), None)  # its route, shaded on the board


def _ours_lapses(state) -> None:
    """The opponent asks us something (a takeback, a draw, a rematch): our own question of just before ("type
    `resign` again to resign", `leave`'s, `draw`'s) lapses, and `yes` / `no` answer his, the one asked last. A `yes`
    meant for his draw offer resigned the game (review rv32: `yes` to our question does what its command does)."""
    if state.confirm in ("leave", "resign", "draw"):
        state.confirm = None


def _rematch(session: Session, event: dict) -> None:
    """A rematch offered (by the opponent: `rematch` accepts it), lapsed, or made (the server moves us to its table
    next: `_left`, `_table_created`, `_joined`), said on the message bar where the game's end was."""
    state, kind = session.state, event.get("kind")
    seats = (state.view or {}).get("seats") or {}
    seat = event.get("seat")
    name = seats.get(seat) if isinstance(seats, dict) else None
    name = name if isinstance(name, str) else seat_name(seat)
    if kind == "rematch":
        state.rematch_to = event.get("table") if isinstance(event.get("table"), str) else None
        state.rematch_offered = None
        if session.made is not None and session.made[0] == state.table and state.rematch_to:  # the same options
            session.made = (state.rematch_to, rematch_options(session.made[1]))
        if state.seat is None and state.rematch_to:  # a spectator: the players go, the finished game stays here
            if ((state.view or {}).get("table") or {}).get("private"):  # (its new join code goes to the players only)
                # TRANSLATORS: to a spectator; `spectate {table} CODE` is a command, typed as it is
                line = _("the players play again at table {table}, private: `leave`, then `spectate {table} CODE` with "
                         "the join code one of them gives you")
            else:
                # TRANSLATORS: to a spectator; `leave` and `spectate {table}` are commands, typed as they are
                line = _("the players play again at table {table}: `leave`, then `spectate {table}` watches it")
            state.say(line.format(table=state.rematch_to))
        return
    if state.seat is None:  # (a spectator: the log's line says it)
        return
    if kind == "rematch_offered" and seat == state.seat:
        state.rematch_asked = state.table
        other = seats.get(other_seat(state.seat)) if isinstance(seats, dict) else None
        # TRANSLATORS: `leave` is the command, typed as it is; {name} the opponent
        state.question = _("rematch asked: waiting for {name} (`leave` goes back to the lobby)").format(
            name=other if isinstance(other, str) else seat_name(other_seat(state.seat)))
        state.say(state.question)
    elif kind == "rematch_offered":
        state.rematch_offered = seat
        _ours_lapses(state)
        # TRANSLATORS: `yes`, `no` and `rematch` are commands, typed as they are; {name} the opponent
        state.question = _("{name} offers a rematch: `yes` (or `rematch`) accepts, `no` declines").format(name=name)
        state.say(state.question)
    elif kind == "rematch_lapsed":
        state.rematch_offered = state.rematch_asked = None
        state.question = ""
        if event.get("reason") == "declined":  # (decline_rematch: the decliner stays at the table)
            if event.get("by") != state.seat:
                by = seats.get(event.get("by")) if isinstance(seats, dict) else None
                # TRANSLATORS: {name} the opponent, who declined our rematch offer
                state.say(_("{name} declined the rematch").format(
                    name=by if isinstance(by, str) else seat_name(event.get("by"))))
            return
        gone = event.get("gone")
        if gone == state.seat:
            return
        state.opponent_gone = True
        gone_name = seats.get(gone) if isinstance(seats, dict) else None
        # TRANSLATORS: {name} the opponent, who left the finished game's table
        state.say(_("{name} left the table: no rematch").format(
            name=gone_name if isinstance(gone_name, str) else seat_name(gone)))


def _lapsed(state) -> None:
    """The log says what was asked and never answered before the game went on (on a timed table the asker's clock
    runs meanwhile, and a request could vanish with the turn it was made in, unexplained)."""
    if "takeback" in state.we_asked:
        state.log.append(said(N_("your takeback request lapsed unanswered: the game went on")))
    if "draw" in state.we_asked:
        state.log.append(said(N_("your draw offer lapsed unanswered: the game went on")))
    if state.takeback_asked:
        state.log.append(said(N_("{seat}'s takeback request lapsed unanswered: the game went on"),
                              seat=state.takeback_asked))
    if state.draw_offered:
        state.log.append(said(N_("{seat}'s draw offer lapsed unanswered: the game went on"), seat=state.draw_offered))


def _came_from(view: dict | None, event: dict) -> dict:
    """For a move's log line: where each token it took or left lay before it (the view before the step), when
    that was not the mover's own square (what it carried from the start): picked up on the way, or handed over by
    a friend there (BG-ITEM-05), which the event's take and leave alone do not tell."""
    squares = {t.get("id"): t.get("square") for t in (view or {}).get("tokens") or () if isinstance(t, dict)}
    start = squares.get(event.get("token"))
    moved = [event.get("take"), *(pair[0] for pair in event.get("leave") or () if isinstance(pair, (list, tuple)))]
    return {token: squares[token] for token in moved if token in squares and squares[token] not in (None, start)}


def _stop_clocks(state) -> None:
    """A seat no longer to act has no deadline running (server/deadlines.py: a turn's clock pauses while the other
    seat acts, and a deadline that ends or pauses is not announced, docs/protocol.md section 13; one that resumes
    is, by a `timer` after the view): its countdown goes, rather than run on stale (a play-test saw Blue's clock of
    his last turn counting in Yellow's combat)."""
    acting = (state.view or {}).get("to_act") or ()
    for seat in [seat for seat in state.timers if seat not in acting]:
        del state.timers[seat]


def _found_at_end(view: dict | None, event: dict) -> list[str]:
    """For a move's log line: what lay on its last square in the view before the step, which the mover carries by
    ending its move there (RUL-119, docs/notation.md) and which the event does not name (not a `take`): an object,
    or a wounded character of its own colour; never an enemy (BG-CARRY-01)."""
    route = event.get("route")
    if not isinstance(route, list) or len(route) < 2 or route[-1] == route[0]:
        return []  # (back where it began: what lies there it carried already)
    passed = {event.get("token"), event.get("take"), *(pair[0] for pair in event.get("leave") or ()
                                                        if isinstance(pair, (list, tuple)) and pair)}
    mover = str(event.get("token"))[:1].upper()
    return [t["id"] for t in (view or {}).get("tokens") or () if isinstance(t, dict) and isinstance(t.get("id"), str)
            and (t.get("character") is False or t.get("colour") == mover) and t.get("square") == route[-1]
            and t["id"] not in passed]


def _carried(view: dict, figure: object) -> dict:
    """What a card-game figure carried in the view before its move, and how many hands it has (a swap's log line
    names what it gave: see cards_panel._steps): {"carried": [...], "hands": n}, "?" for an object of the other
    player's, unseen (CG-OPT-03); {} if the view does not show it."""
    from dungeon_twister.engine.cards.catalogue import load

    for f in view.get("figures") or ():
        if isinstance(f, dict) and f.get("id") == figure:
            character = load().characters.get(f.get("code"))
            if character is None:
                return {}
            loads = [load for load in (f.get("carries"), f.get("also_carries")) if isinstance(load, str)]
            # the rules' hands (CG-GOLD-03: one; the Paladin two, CG-CHAR-PALADIN-01; the Ghost none)
            hands = 2 if "mighty" in character.abilities else 0 if "no_carrying" in character.abilities else 1
            return {"carried": loads + ["?"] * int(f.get("hidden_objects") or 0), "hands": hands}
    return {}


def _table_event(session: Session, message: TableEvent) -> None:
    event = message.event
    if event.get("kind") == "view":
        if type(event.get("view")) is not dict:  # (`_unreadable`: dropped, the view we had stays)
            raise ValueError(f"a view event whose view is a {type(event.get('view')).__name__}, not a map")
        if not session.state.view_of_request:  # (a request's view is not an action's: take_back_moves)
            session.state.view_came()
        session.state.view_of_request = False
        before, session.state.view = session.state.view, event.get("view")
        secret_choice.on_view(session, before, session.state.view)
        _placing_in_5_seconds(session, before, session.state.view)
        _stop_clocks(session.state)
        session.view_changed(message.n, session.state.view)
        session.state.note_turn(session.clock())
        contribution.on_view(session)
        _check_deal(session)
        _over_in_view(session, session.state.view)
        return
    session.state.view_of_request = event.get("kind") in REQUESTS
    words = screens(session.state.view)
    if event.get("kind") == "moved" and (event.get("take") or event.get("leave")):
        event = {**event, "from": _came_from(session.state.view, event)}
    if event.get("kind") == "moved":
        found = _found_at_end(session.state.view, event)
        if found:
            event = {**event, "found": found}
    if event.get("kind") == "card_chosen" and "value" not in event:
        laid = _laid_by_the_clock(session.state.log, event.get("seat"))
        if laid is not None:
            event = {**event, "value": laid}
    if event.get("kind") in ("timeout", "idle_warning"):  # ours, marked so (a server's own key of that name is not
        # taken: rv29)
        event = {key: value for key, value in event.items() if key != YOURS}
        if session.state.seat is not None and event.get("seat") == session.state.seat:
            event[YOURS] = True
    if event.get("kind") in ("move", "wallwalk") and (session.state.view or {}).get("game") == "cards":
        event = {**event, **_carried(session.state.view, event.get("figure"))}
    try:
        line, compact = words.describe(event), words.compact(event)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        # an event whose fields this client does not read as it expects (a server of another version, or a bug of
        # ours: a card game's game_over once crashed every client at the table): said, and the game goes on
        # TRANSLATORS: a log line; {kind} is the event's name as the server sent it
        kind = str(event.get("kind"))[:40]  # (drawn through printable.py, as every text)
        line, compact = _("an event this client cannot show: {kind}").format(kind=kind), None
    if line:
        session.state.log.append(Told(line, event))  # (kept with its event: a restart in another language retells it)
    if event.get("kind") == "timeout":
        _nothing_to_check(session, event)
        _remade_after_restart(session, event)
    if event.get("kind") in MINUTE_MORE and ((session.state.view or {}).get("table") or {}).get("timers"):
        # (the clock jumped a minute and nothing said why: play-test pt25 F16)
        # TRANSLATORS: after a Speed Potion or a Charm Scroll on a table with timers; {rule} its rule ID
        session.state.log.append(said(N_("the turn's clock gains a minute ({rule})"),
                                      rule=MINUTE_MORE[event["kind"]]))
    _questions(session, event, line)
    if event.get("kind") in REMATCH_EVENTS:
        _rematch(session, event)
    if event.get("kind") == "seat_kept" and event.get("seat") == session.state.seat and line:
        session.state.say(line)  # (in place of "joined table ..." of the new table: why we are here, srv30)
        _kept_lines(session.state, event.get("from"))
    if event.get("kind") == "idle_warning" and event.get(YOURS) and line:
        # the one it warns reads it in the message bar too, not only in the log (srv30); the game moving on (his
        # action) takes it away
        session.state.say(line)
        session.state.event_notice = line
    if compact:
        session.state.add_move(compact)
    if event.get("kind") in ("moved", "wallwalked", "jumped") and isinstance(event.get("token"), str):
        route = [square for square in event.get("route") or () if isinstance(square, str)]
        if route:  # the last move of that side, shaded on the board
            session.state.trails[event["token"][:1].upper()] = route
    if event.get("kind") == "picked" and event.get("stage") == "rooms":  # replayed by the deal check
        session.state.room_picks.append((str(event.get("seat")), f"pick {event.get('value')}"))
    if event.get("kind") == "game_started":  # PR-SCEN: what the scenario is about, once, as it starts
        intro = scenario_intro(session.state.view)
        session.state.log.extend(intro)
        if intro and session.state.help_text is None:
            # and in the help box, where a newcomer reads it: in the log alone, the 3 rows an 80 x 24 panel leaves
            # it had cut a card tutorial's goal to its last words, on a panel he had not opened (play-test pt29 F20)
            session.state.help_text = goal_box(intro)


TLS_ONLY = ("this server takes key proofs over TLS only (dt-client connects with TLS when the server offers it)")
"""The template of the `bad_proof` of a server with TLS to a proof over plain TCP (server/session.py `_prove`)."""
MINUTE_MORE = {"potion_drunk": "BG-OPT-05", "charmed": "PD-OBJ-CHARM-07"}
"""The events that add a minute to the turn on a table with timers (server/deadlines.py), and the rule."""


def _placing_in_5_seconds(session: Session, before: dict | None, view: dict | None) -> None:
    """A timed table's revealed room holds the revealer's own objects, which we place (BG-REVEAL-06) within 5
    seconds, or he places them (BG-OPT-03): said as the combat card's 5 seconds are. Only the panel's clock said
    it, and a play-test's player missed it twice, his log then reading "time ran out for Blue: pass" (pt25 F7)."""
    state = session.state
    placement = (view or {}).get("placement")
    if (state.seat is None or not placement or placement.get("placer") != state.seat
            or placement.get("revealer") == state.seat or placement.get("passed")
            or not ((view or {}).get("table") or {}).get("timers")):
        return
    earlier = (before or {}).get("placement") or {}
    if earlier.get("placer") == state.seat and earlier.get("slot") == placement.get("slot"):
        return  # (said when it began)
    tokens = who_places(view).get(state.seat)
    if not tokens:
        return
    # TRANSLATORS: {seat} revealed a room holding objects of his own colour, which the reader places (BG-REVEAL-06);
    # {tokens}: their codes (yFW, yRP); the 5 seconds are BG-OPT-03's
    line = said(N_("{seat}'s revealed objects are yours to place: place {tokens} within 5 seconds, or {seat} "
                   "places them"), seat=placement.get("revealer"), tokens=", ".join(tokens))
    state.log.append(line)
    if state.refusal is None:  # (as the combat card's 5 seconds: a refusal of the line just typed stays in the bar)
        state.say(line)
        state.event_notice = line  # the game moving on takes it away


def _nothing_to_check(session: Session, event: dict) -> None:
    """Our time ran out before we committed to the secret choice `purpose`: the server made that choice for us
    (docs/protocol.md section 13, Timers), sends us none of the opponent's commitment (it goes to a seat once both
    are in, and ours never came: server/secret.py `force`) nor his reveal, and we have nothing to check. Said once,
    after the timeout's line: the opponent's log told the check of the server's commitment for us, ours nothing
    (play-test pt24 F3). Not sent the opponent's commitment and reveal instead: sent after our time ran out, they
    would prove nothing (a commitment guards a choice made before the other's is seen, and we made none)."""
    state, purpose = session.state, event.get("purpose")
    if (state.seat is None or event.get("seat") != state.seat or not isinstance(purpose, str) or not purpose
            or purpose == DEAL_PURPOSE or purpose in state.secrets):
        return
    # TRANSLATORS: after "your time ran out for the card for combat 1: combat +0", to the player whose time ran
    # out; {purpose} the secret choice, in words (the card for combat 1, the starting team), {seat} the opponent
    state.log.append(said(N_("{purpose}: the server chose for you, so there is nothing for you to check of {seat}'s "
                             "choice (the check shows that he made his before he saw yours, and you made none)"),
                          purpose=purpose, seat=other_seat(state.seat)))


def _remade_after_restart(session: Session, event: dict) -> None:
    """The opponent's secret choice, a bot's lost with the server's restart, was made again by the server (DT-091,
    `why` restart): the commitment we were or will be sent is the lost choice's, which nobody can open, so our
    round's line stops promising its check (play-test pt24b: "the opponent's choice is checked against his
    commitment when the game shows it" stayed, the check never came)."""
    state, purpose = session.state, event.get("purpose")
    if (event.get("why") != "restart" or state.seat is None or event.get("seat") != other_seat(state.seat)
            or not isinstance(purpose, str) or not purpose):
        return
    state.opponent_remade.add(purpose)
    round_ = state.secrets.get(purpose)
    if round_ is not None and not round_.opponent_remade:
        shown = state.notice in (round_.describe(), round_.describe(pending=False))
        round_.opponent_remade = True
        if shown:
            state.notice = round_.describe()


def _laid_by_the_clock(log, seat) -> int | None:
    """The combat card the server laid for `seat` in this combat when his time ran out, as its public `timeout`
    event said (`combat +0`), else None. The `card_chosen` that follows shows no value to the other seat and the
    spectators: it is told as that card, not as "Yellow has laid a card for the combat" right after "Yellow's time
    ran out for combat-1: combat +0" (play-test pt24 F1)."""
    for line in reversed(log):
        event = getattr(line, "event", None)
        if not isinstance(event, dict):
            continue
        if event.get("kind") == "combat_declared":  # (the combat this card is of began there)
            return None
        if event.get("kind") == "timeout" and event.get("seat") == seat and str(event.get("purpose")).startswith(
                "combat"):
            for action in event.get("actions") or ():
                words = str(action).split()
                if len(words) == 2 and words[0] == "combat" and words[1].lstrip("+").isdigit():
                    return int(words[1].lstrip("+"))
            return None
    return None


def _opponent_commit(session: Session, message: OpponentCommit) -> None:
    if message.purpose == DEAL_PURPOSE:
        return contribution.on_opponent_commit(session, message)
    secret_choice.on_opponent_commit(session, message)


def _opponent_reveal(session: Session, message: OpponentReveal) -> None:
    if message.purpose == DEAL_PURPOSE:
        return contribution.on_opponent_reveal(session, message)
    secret_choice.on_opponent_reveal(session, message)
    session.opponent_revealed(message.purpose)
    if message.purpose == "build":  # the opponent's build comes at the end: the deal can be checked now
        _check_deal(session)


def _action_ok(session: Session, message: ActionOk) -> None:
    session.state.pending_actions.pop(message.action_id, None)


def _action_refused(session: Session, message: ActionRefused) -> None:
    state = session.state
    text = state.pending_actions.pop(message.action_id, "?")
    state.refusal = Refusal(text, message.code, message.message, message.rule, message.template, message.values)
    if message.code == "bad_notation" and (state.takeback_asked or state.draw_offered) and len(text.split()) == 1:
        # a word typed to answer the question, in the player's language ("si", "ja"): the question again
        # TRANSLATORS: {text}: the word typed (e.g. 'si') while the opponent asks a question; {question} is that
        # question ("... type yes or no": yes and no are commands, in English)
        state.say(_("{text} is not a command: {question}").format(text=repr(text), question=state.question))


def _timer(session: Session, message: Timer) -> None:
    session.state.timers[message.seat] = session.clock() + message.deadline_ms / 1000


def _opponent_left(session: Session, message: OpponentLeft) -> None:
    session.state.away[message.seat] = session.clock() + message.grace_seconds  # (the panel counts it down)
    session.state.log.append(said(N_("{seat} disconnected; the seat is kept {seconds} s"), seat=message.seat,
                                  seconds=message.grace_seconds))


def _opponent_back(session: Session, message: OpponentBack) -> None:
    session.state.away.pop(message.seat, None)
    session.state.log.append(said(N_("{seat} is back"), seat=message.seat))


def _game_over(session: Session, message: GameOver) -> None:
    _over(session, message.result)
    session.seat_lost("game over")  # after the reveals held until the end (they come before this message)


def _over_in_view(session: Session, view: object) -> None:
    """A view that says the game is over (its table's `result`): for a client back after the end, the events and
    the game_over message it missed; for the others it comes just before that message."""
    table = view.get("table") if isinstance(view, dict) else None
    result = table.get("result") if isinstance(table, dict) else None
    if isinstance(result, dict):
        _over(session, result)


def _over(session: Session, result: dict) -> None:
    """The game is over: said once."""
    if session.state.result is not None:
        return
    session.state.result = result
    session.state.timers.clear()
    winner = result.get("winner")
    if winner:
        line = _("game over: {seat} wins").format(seat=seat_name(winner))
    elif result.get("reason") in UNPLAYED:
        line = _("game over without a winner ({reason})").format(reason=reason_text(result.get("reason")))
    else:
        line = _("game over: draw")
    if session.state.may_rematch:  # what to do next, where the player reads the end (play-test pt29 F15)
        # TRANSLATORS: after "game over: ...", to a player; `rematch` is the command, typed as it is
        line += " · " + _("`rematch` plays again, the colours swapped")
    elif (gone := session.state.opponent_resigned) is not None:  # (play-test pl31: told only by `rematch`'s refusal)
        line += " · " + resigned_text(gone)
    session.state.say(line)


def _error(session: Session, message: Error) -> None:
    state = session.state
    if message.fatal:
        session.fatal = True  # (the connection ends: Session.detach waits before the next if it ends at once)
    # the lobby's first answer may be its list refused (the kept seat's table gone: no_such_table), answering no
    # join or create of ours: a `create` held for it never went, and held every later `create` of the connection
    # (review rv33)
    listed = not message.fatal and session.awaiting_list
    if message.code in ("commit_twice", "bad_purpose") and session.resent_commit_refused():
        return  # the commitment we sent again after a resume had arrived the first time (or the round is over)
    if message.code in ("seat_taken", "no_such_table", "bad_join_code", "not_allowed") and not listed:
        session.setup = None
    if listed:
        session.lobby_listed()
    if message.code in ("not_allowed", "bad_field") and state.table is None:
        # a create refused (a limit on tables, a server shutting down, options it does not take): no table
        # follows, and a later unasked `table_created` (the move to a seat kept for us) is not that create's, nor
        # are its options those a bot's rematch would use (review rv32)
        session.creating = None
    if message.code == "rate_limited" and (session.tables_offset or session.spectate_listed):
        session.tables_listed()  # a page of the list refused: the list as it came (a `watch N` goes now)
    if message.code == "bad_field" and session.older_bot(message.message):
        return
    if message.code == "unknown_type" and state.rematch_asked:  # (added in session 30)
        state.rematch_asked = None
        return state.say(_("this server does not offer rematches (it is older than this client): `leave`, then "
                           "create a new table"))
    if message.code == "not_allowed" and state.rematch_asked:
        state.rematch_asked = None
    if message.code == "unknown_type" and state.games_asked:  # (list_games: added in session 27; the code is what
        state.games_asked = False  # docs/protocol.md promises, not the message's words: review rv27)
        state.help_text = None
        return state.say(_("this server does not list its finished games (it is older than this client)"))
    if message.code in ("rate_limited", "bad_token", "no_such_table"):
        state.resync_asked = False  # (if it was the snapshot asked for that was refused, the next event that
        # fails may ask again: review rv26; a refusal of something else costs at most one more `resume`)
    if message.code == "resumed_elsewhere":
        session.taken_over()
        return
    if message.code == "kicked":  # (dt-server admin kick: no automatic reconnection; said below, as the server says)
        session.kicked()
    if message.code == "bad_token":
        table, seated, away = state.table, state.seat is not None, session.away()
        state.leave_table()
        session.seat_lost("bad token")
        session.list_tables()
        if table is not None and seated and away is not None and away < session.grace:
            # a play-test restored the server's data from a copy taken before the table was made: the server no
            # longer knew the seat, though the player was away 8 s, and "given up while you were away" was untrue
            # TRANSLATORS: {away}: seconds the client was away; {seconds}: how long the server holds a seat
            state.say(_("the server no longer knows your seat at {table}, though you were away {away} s and it holds "
                        "a seat {seconds} s: it may have restarted from an earlier copy of its data. You are back in "
                        "the lobby").format(table=table, away=max(1, int(away)), seconds=session.grace))
            state.carried = state.notice  # (the key may seat us at once at a table of that copy: said there too)
            return
        if table is not None and seated:
            # a play-test came back after the seat's grace and read only "this resume token is unknown or
            # expired": nothing said that his seat, and so his game, had gone on without him
            # TRANSLATORS: after coming back too late to a table; {seconds}: how long the server holds a seat
            state.say(_("your seat at {table} was given up while you were away (the server holds a seat {seconds} "
                        "s): you are back in the lobby").format(table=table, seconds=session.grace))
            return
    meaning = ERROR_CODES[message.code].meaning if message.code in ERROR_CODES else ""
    text = server_text(message.message or meaning, message.template, message.values)
    if message.code == "game_stopped" and state.table is not None:
        return session.game_stopped(text)
    if message.code == "bad_proof" and message.fatal:
        return session.proof_refused(text, tls_only=message.template == TLS_ONLY)
    over = any(info.table == session.joining and info.status == "over" for info in state.tables)
    if message.code == "seat_taken" and session.joining and over and state.server and not state.local:
        # TRANSLATORS: after a refusal to join a table whose game is over; {line} is a shell command: keep it as is
        text = _("{message} · in a shell, `{line}` steps through it").format(
            message=text, line=f"dt-client replay {session.joining} --server {state.server}")
    elif message.code == "seat_taken" and session.joining and not state.at_table:  # (not to one seated there:
        # `bot Y` at a full table told the player to spectate his own game, pt25b F6)
        # TRANSLATORS: after a refusal to join a full table; `spectate {table}` is the command as typed
        # (a private table's with its code, which `spectate` needs as `join` did: play-test pt28 W5)
        watched = " ".join(filter(None, (session.joining, session.joining_code)))
        text = _("{message} · `spectate {table}` watches the game").format(message=text, table=watched)
    if message.template:  # a sentence for people (docs/protocol.md section 7): its code would only be noise
        state.say(_("server: {message}").format(message=text))
    else:
        state.say(_("server: {message} ({code})").format(message=text, code=message.code))


def _ping(session: Session, message: Ping) -> None:
    session.send(Pong(message.id))


def _announcement(session: Session, message: Announcement) -> None:
    """The server's admin says something to everyone (dt-server admin say): in the chat pane, which keeps it, and
    in the message bar; never as a player's line."""
    # TRANSLATORS: a message of the server's admin to every connected player ({text}: his words, as he typed them)
    line = _("announcement from the server's admin: {text}").format(text=message.text)
    session.state.chat.append(line)
    session.state.say(line)


def _server_closing(session: Session, message: ServerClosing) -> None:
    session.state.say(_("the server is shutting down: {reason}").format(reason=message.reason))


def _protocol_error(session: Session, error: ProtocolError) -> None:
    """A frame from the server broke the protocol: resume after a gap, else report it back."""
    connection = session.connection
    if error.code == "event_gap" and connection is not None and connection.table is not None:
        session.send(Resume(connection.table, connection.last_event))
        return
    if connection is not None:
        session.write(connection.send_error(error))
    session.state.say(_("protocol error from the server: {error} ({code})").format(error=error.message,
                                                                                   code=error.code))


_HANDLERS: dict[type, Callable[[Session, Any], None]] = {
    Welcome: _welcome,
    Refused: _refused,
    Tables: _tables,
    TableUpdate: _table_update,
    Ratings: _ratings,
    Games: _games,
    TableClosed: _table_closed,
    TableCreated: _table_created,
    Joined: _joined,
    Left: _left,
    ChatMessage: _chat,
    Snapshot: _snapshot,
    TableEvent: _table_event,
    ActionOk: _action_ok,
    ActionRefused: _action_refused,
    Timer: _timer,
    OpponentLeft: _opponent_left,
    OpponentBack: _opponent_back,
    GameOver: _game_over,
    Error: _error,
    Ping: _ping,
    ServerClosing: _server_closing,
    Announcement: _announcement,
    OpponentCommit: _opponent_commit,
    OpponentReveal: _opponent_reveal,
}
