"""The prompt's commands: lobby and table commands, `help`, `look`; anything else at a table is an action."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from difflib import get_close_matches

from dungeon_twister.engine import NotationError
from dungeon_twister.engine.core.typed import typed_text
from dungeon_twister.engine.families import FAMILIES
from dungeon_twister.protocol import ListGames, ListRatings, TableOptions, rematch_options
from dungeon_twister.protocol.names import is_bot_name, name_key
from dungeon_twister.protocol.msg_lobby import SCENARIOS
from dungeon_twister.protocol.kinds import CHAT_TEXT

from .completion import BOT_KINDS
from .describe import describe_square  # noqa: F401  (re-exported: `look` at a board-game table)
from .games import screens
from .help import help_text
from .i18n import _, ngettext
from .local_server import game_record
from .names import (GAMES_PAGE, GAMES_PAGES, is_table_number, other_seat, seat_name, seat_named, table_named,
                    unlisted_number)
from .session import Session
from .state import RATINGS_SEARCHED, EndFirst, TableSetup, notation_error_text, resigned_text


class UsageError(ValueError):
    """A command typed with wrong arguments; the message says how to type it."""


ANSWERS = {"ja": "yes", "oui": "yes", "sí": "yes", "si": "yes", "sì": "yes", "nein": "no", "non": "no"}
"""The answers `yes` and `no` in the client's other languages (de, fr, es, it; "no" is Spanish and Italian too):
a German player asked to take a move back typed `nein`, which was refused as no command. Commands stay English;
these words are no command or action verb of any game."""


def _before_first_turn(state) -> bool:
    """Whether the game we play has not reached its first turn (its setup): left now, it is aborted, not won by
    the other seat (the server's reason `aborted`)."""
    turn = (state.view or {}).get("turn")
    return isinstance(turn, int) and turn < 1


SHELL_COMMANDS = ("replay", "verify")
"""dt-client's own subcommands that a player types at the prompt, having read them at a game's end."""


class Commands:
    """Runs one prompt line against the session; answers go to the state (notice, help text)."""

    def __init__(self, session: Session, exit_app: Callable[[], None]) -> None:
        self.session = session
        self.state = session.state
        self.exit_app = exit_app
        self._commands = {
            "help": self.help, "quit": self.quit, "chat": self.chat, "bot": self.bot, "refresh": self.refresh,
            "create": self.create, "join": self.join, "spectate": self.spectate, "leave": self.leave,
            "look": self.look, "reconnect": self.reconnect, "ratings": self.ratings, "games": self.games,
            "undo": self.undo,
            "draw": self.draw, "rematch": self.rematch, "yes": self.yes, "no": self.no, "resign": self.resign,
            "ignore": self.ignore, "unignore": self.unignore, "log": self.log,
        }

    def run(self, line: str) -> None:
        line = line.strip()
        if not line:
            return
        self.state.help_text = None
        self.state.say("")  # the message bar answers this line: the last one's refusal or notice goes
        if not line.isascii():
            try:
                line = _as_read(line)
            except NotationError as error:
                self.state.say(notation_error_text(error))
                return
        word, _sep, rest = line.partition(" ")
        command = self._commands.get(ANSWERS.get(word.lower(), word.lower()))
        confirming, self.state.confirm = self.state.confirm, None
        self._confirming = confirming  # (what `yes` / `no` may be answering: a `leave` or `resign` asked again)
        if confirming is not None and confirming in (word.lower(), line, " ".join([word.lower(), *rest.split()])):
            self.state.confirm = confirming  # the confirmation itself (a command's word, or an action's whole text)
        try:
            if command is None and word.lower() in SHELL_COMMANDS:
                raise UsageError(self._from_the_shell(word.lower(), rest.strip()))
            if command is not None:
                command(rest.strip())
            elif self.state.at_table and ((verb := word.lower()) in (verbs := self._verbs())
                                          or not self._near_command(word)):
                if verb in verbs:  # a verb in capitals (`End`, `MOVE`) is the verb; the tokens keep their case
                    line = " ".join(filter(None, (verb, rest.strip())))
                self.session.act(line, verbs)
            else:
                near = self._near_command(word)
                if near:
                    # TRANSLATORS: {command} what was typed, {suggestion} a command; "help" is typed as it is
                    raise UsageError(_("unknown command {command}: did you mean {suggestion}? (type help)").format(
                        command=repr(word), suggestion=repr(near)))
                raise UsageError(_("unknown command {command} (type help)").format(command=repr(word)))
        except UsageError as error:
            self.state.say(str(error))
        except Exception as error:  # a command that reads a view no server should send (`look` over `"tokens": 5`)
            # said, as the screens say what they cannot draw (layout._drawn): it ended the client (red team rt25)
            self.state.say(_("cannot do that now: {error}").format(error=f"{type(error).__name__}: {str(error)[:200]}"))

    def _from_the_shell(self, command: str, rest: str) -> str:
        """`replay 1` or `verify 1` typed at the prompt (play-test pt24: the game's end says "dt-client replay ...",
        and a player in the lobby typed `replay 1`, to be told "unknown command 'replay'"): the line to run in a
        shell, with this server's address for a server's game."""
        table = rest or self.state.table or "TABLE"
        if self.state.server and not self.state.local:
            line = f"dt-client {command} {table} --server {self.state.server}"
        else:  # (`dt-client play`'s server goes with the game: the record file it wrote, once the game is over)
            record = game_record(self.state.table) if self.state.table else None
            line = f"dt-client {command} {record or 'FILE'}"
        # TRANSLATORS: {command} replay or verify, {line} a command line to type in a shell: keep both as they are
        return _("{command} runs in a shell, not at this prompt: {line}").format(command=command, line=line)

    def _verbs(self) -> list[str]:
        """The action verbs of the table's game."""
        return FAMILIES[(self.state.view or {}).get("game", "board")].verbs()

    def _near_command(self, word: str) -> str | None:
        """The command a mistyped word was likely meant to be (`laeve` -> `leave`), or the one another game's
        word means (`watch` -> `spectate`: SYNONYMS), or None."""
        if (meant := SYNONYMS.get(word.lower())) is not None and meant in self._commands:
            return meant
        near = get_close_matches(word.lower(), self._commands, n=1, cutoff=0.75)
        return near[0] if near else None

    # --- everywhere -------------------------------------------------------------------------------------
    def help(self, topic: str) -> None:
        if topic.strip().lower() in SHELL_COMMANDS:  # (play-test pt27 F9: "no help on 'replay'", yet `replay 1` told)
            self.state.help_text = self._from_the_shell(topic.strip().lower(), "")
            return
        view = self.state.view or {}
        self.state.help_text = help_text(topic, at_table=self.state.at_table, game=view.get("game", "board"),
                                         view=self.state.view, seat=self.state.seat, legal=self.state.legal,
                                         set_name=view.get("set") if self.state.at_table else None)

    def reconnect(self, _args: str) -> None:
        self.session.reconnect()

    def ratings(self, args: str) -> None:
        """The leaderboard, or (`ratings NAME`) that player's line of it (a play-test's `ratings dora` showed the
        whole board without a word)."""
        if self.state.at_table:
            raise UsageError(_("ratings: in the lobby (leave the table first)"))
        words = args.split()
        if len(words) > 1:
            raise UsageError("ratings [NAME]")
        self.state.ratings_for = words[0] if words else None
        self.session.send(ListRatings(limit=RATINGS_SEARCHED) if words else ListRatings())

    def games(self, args: str) -> None:
        """The games finished on this server, the last first, a page at a time (`games 2`): a player who had not
        noted his game's table finds it there, and the line to step through it (play-test pt27 F11)."""
        if self.state.at_table:
            raise UsageError(_("games: in the lobby (leave the table first)"))
        words = args.split()
        if len(words) > 1 or (words and not (words[0].isascii() and words[0].isdigit()
                                             and 1 <= int(words[0]) <= GAMES_PAGES)):
            raise UsageError("games [PAGE]")
        self.state.games_page, self.state.games_asked = int(words[0]) if words else 1, True
        self.session.send(ListGames(offset=(self.state.games_page - 1) * GAMES_PAGE, limit=GAMES_PAGE))

    def quit(self, _args: str) -> None:
        self.session.quit()
        self.exit_app()

    def chat(self, text: str) -> None:
        if not text:  # the chat so far, in the help box (the chat pane shows its last few lines only)
            if not self.state.chat:
                # TRANSLATORS: `chat` alone with nothing said yet; chat TEXT is typed as it is
                raise UsageError(_("nothing was said here yet: chat TEXT talks to everyone here"))
            # TRANSLATORS: the title of the chat so far, shown in the help box
            title = ngettext("The chat so far ({count} line; PgUp/PgDn scroll it, Esc closes it)",
                             "The chat so far ({count} lines; PgUp/PgDn scroll it, Esc closes it)",
                             len(self.state.chat)).format(count=len(self.state.chat))
            self.state.help_text = EndFirst("\n".join([title, "", *self.state.chat]))
            return
        limit = CHAT_TEXT.max_len
        self.session.chat(text[:limit])
        if len(text) > limit:  # (the protocol's limit: the rest would be refused)
            self.state.say(_("your message was cut to its first {limit} characters").format(limit=limit))

    def log(self, args: str) -> None:
        """The table's log so far, in the help box: the panel shows its last lines only, and a newcomer at 80x24
        saw the bot's whole turn (its reveal, where it placed his figures, a combat's result) scroll past with no
        way to read it back (play-test pt29 F8)."""
        if args.strip():
            raise UsageError("log")
        if not self.state.log:
            # TRANSLATORS: `log` with nothing in the table's log yet
            raise UsageError(_("nothing happened here yet"))
        # TRANSLATORS: the title of the table's log so far, shown in the help box
        title = ngettext("The log so far ({count} line; PgUp/PgDn scroll it, Esc closes it)",
                         "The log so far ({count} lines; PgUp/PgDn scroll it, Esc closes it)",
                         len(self.state.log)).format(count=len(self.state.log))
        self.state.help_text = EndFirst("\n".join([title, "", *self.state.log]))

    def ignore(self, args: str) -> None:
        """Hide a player's chat for this run of the client (a public server's rude player: play-test ad29 found no
        way for a player to stop reading him); alone, the players ignored."""
        words = args.split()
        if len(words) > 1:
            raise UsageError("ignore [NAME]")
        ignored = self.state.ignored
        if not words:
            if not ignored:
                # TRANSLATORS: `ignore` alone, nobody ignored yet; `ignore NAME` is typed as it is
                self.state.say(_("you ignore nobody: `ignore NAME` hides NAME's chat for this run of dt-client"))
            else:
                # TRANSLATORS: `ignore` alone: {names} the players whose chat is hidden; `unignore NAME` as typed
                self.state.say(_("chat hidden from: {names} (`unignore NAME` shows it again)").format(
                    names=", ".join(sorted(ignored.values(), key=str.casefold))))
            return
        ignored[name_key(words[0])] = words[0]
        # TRANSLATORS: after `ignore NAME`; `unignore NAME` is typed as it is
        self.state.say(_("{name}'s chat is hidden from now on, for this run of dt-client (`unignore {name}` shows "
                         "it again)").format(name=words[0]))

    def unignore(self, args: str) -> None:
        words = args.split()
        if len(words) != 1:
            raise UsageError("unignore NAME")
        if self.state.ignored.pop(name_key(words[0]), None) is None:
            # TRANSLATORS: `unignore NAME` for a name not ignored
            raise UsageError(_("{name} is not ignored").format(name=words[0]))
        self.state.say(_("{name}'s chat is shown again").format(name=words[0]))

    def bot(self, args: str) -> None:
        words = args.split()
        seat = seat_named(words[0]) if words else None
        if not 1 <= len(words) <= 2 or seat is None or (len(words) == 2 and words[1] not in BOT_KINDS):
            raise UsageError("bot B|Y [planner|greedy|random]")
        if not self.state.at_table or self.state.spectating:
            raise UsageError(_("sit at a table first (create or join), then seat a bot"))
        if seat == self.state.seat:  # (the server's "seat B is taken · `spectate ...`" is for one outside the table)
            raise UsageError(_("you sit in seat {seat} yourself: bot {other} seats a bot across from you").format(
                seat=seat, other="Y" if seat == "B" else "B"))
        self.session.seat_bot(seat, words[1] if len(words) == 2 else "planner")

    # --- lobby ------------------------------------------------------------------------------------------
    def refresh(self, _args: str) -> None:
        self.session.list_tables()

    def create(self, args: str) -> None:
        self._in_lobby()
        self.session.create_table(parse_table_options(args), TableSetup())

    def join(self, args: str) -> None:
        self._in_lobby()
        words = args.split()
        if not 1 <= len(words) <= 3:
            raise UsageError("join TABLE [B|Y] [CODE]")
        coded = any(seat_named(word) is None and len(word) > 1 for word in words[1:])
        table, seat, code = self._table(words[0], "join ID [B|Y] CODE" if coded else None), None, None
        listed = any(info.table == table for info in self.state.tables)  # (a private table is never listed)
        for word in words[1:]:
            if seat is None and (named := seat_named(word)) is not None:
                seat = named
            elif len(word) == 1:  # (no join code is one letter: a play-test's `join t1 Q` was read as one)
                raise UsageError(_("{word} is not a seat: B (Blue) or Y (Yellow)").format(word=repr(word)))
            elif listed:
                raise UsageError(_("{table} is a public table: join it with no code (join {table} B or Y)")
                                 .format(table=table))
            else:
                code = word
        self.session.join(table, seat, code)

    def spectate(self, args: str) -> None:
        self._in_lobby()
        words = args.split()
        if len(words) not in (1, 2):
            raise UsageError("spectate TABLE [CODE]")
        self.session.spectate(self._table(words[0], "spectate ID CODE" if len(words) == 2 else None), *words[1:])

    def _table(self, word: str, private: str | None = None) -> str:
        """The table a typed word names: a listed table's id, or its number (names.table_named); a number that no
        listed table has is refused here, with the list, when the list is whole (names.unlisted_number). With a
        join code typed (`private`: the command's usage with an id), a number no listed table has is said to
        need the private table's whole id, since a private table is never listed (play-test pt28 F1: `join 2 CODE`
        was answered with the other tables' ids)."""
        listed = [info.table for info in self.state.tables]
        problem = unlisted_number(word, listed)
        if problem is not None and private is not None and is_table_number(word):
            number = (word[1:] if word[:1] in "tT" else word).lstrip("0") or "0"
            # TRANSLATORS: {prefix} the start of a table's id (t2-), {usage} a command's form, typed as it is
            # (join ID [B|Y] CODE)
            problem = _("a private table is not in the list, so its number alone does not name it: type its whole "
                        "id, as its creator's panel shows it ({prefix}…): {usage}").format(
                prefix=f"t{number}-", usage=private)
        if problem is not None:
            raise UsageError(problem)
        return table_named(word, listed)

    def _in_lobby(self) -> None:
        if self.state.at_table:
            raise UsageError(_("you are at table {table}: leave it first").format(table=self.state.table))

    # --- at a table -------------------------------------------------------------------------------------
    def leave(self, _args: str) -> None:
        """Leave the table; leaving a running game resigns it, so that takes a second `leave`."""
        state = self.state
        if not state.at_table:
            raise UsageError(_("you are not at a table"))
        if state.game_running and state.confirm != "leave":
            state.confirm = "leave"
            if _before_first_turn(state):
                # TRANSLATORS: `leave` is the command, typed as it is
                state.say(_("leaving now, before the first turn, aborts the game: no winner, not rated. Type "
                            "`leave` again to leave, anything else to stay"))
            else:
                # TRANSLATORS: `leave` is the command, typed as it is
                state.say(_("leaving a running game resigns it: your opponent wins. Type `leave` again to resign, "
                            "anything else to play on"))
            return
        state.confirm = None
        self.session.leave()

    def resign(self, _args: str) -> None:
        """Resign the game we play (players of other game servers type `resign`): as `leave`, asked once more."""
        state = self.state
        if not state.game_running or state.spectating or state.seat is None:
            # TRANSLATORS: resign and leave are the commands, typed as they are
            raise UsageError(_("resign: in a game you play (leave leaves a table)"))
        if state.confirm != "resign":
            state.confirm = "resign"
            if _before_first_turn(state):
                # TRANSLATORS: `resign` is the command, typed as it is
                state.say(_("resigning now, before the first turn, aborts the game: no winner, not rated. Type "
                            "`resign` again to do so, anything else to stay"))
            else:
                # TRANSLATORS: `resign` is the command, typed as it is
                state.say(_("resigning: your opponent wins. Type `resign` again to resign, anything else to play on"))
            return
        state.confirm = None
        self.session.leave()

    def undo(self, _args: str) -> None:
        """Ask the opponent to take back our last action (DT-224: not after a secret or a reveal)."""
        state = self.state
        if not state.game_running or state.spectating:
            raise UsageError(_("undo: your last action, in a game you play"))
        self.session.takeback()  # "waiting for the answer" once the server puts it to him (inbox: takeback_asked)

    def draw(self, _args: str) -> None:
        """Offer the opponent a draw, or accept his (DT-228: an offer to a player who offered one accepts his)."""
        state = self.state
        if state.seat is not None and not state.spectating and state.view and state.view.get("started") is False:
            # (a play-tester, seated and waiting, read the usage line as if it said nothing of his case)
            raise UsageError(_("draw: the game has not started: nobody to offer a draw to yet"))
        if not state.game_running or state.spectating:
            raise UsageError(_("draw: offer a draw, in a game you play"))
        seats = (state.view or {}).get("seats")
        opponent = seats.get(other_seat(state.seat)) if isinstance(seats, dict) and state.seat else None
        if (isinstance(opponent, str) and is_bot_name(opponent) and state.confirm != "draw"
                and state.draw_offered is None):
            # a bot answers at once (DT-228): a play-test's "curious newcomer" typed `draw` and the game was over
            # (pl31 F2); asked once more, as `resign` is
            state.confirm = "draw"
            # TRANSLATORS: `draw` is the command, typed as it is; DT-228 is a rule ID
            state.say(_("a bot answers at once: it accepts unless it leads on VP, and the game ends drawn (DT-228). "
                        "Type `draw` again to offer it, anything else to play on"))
            return
        state.confirm = None
        self.session.offer_draw()  # "waiting for the answer" once the server puts it to him (inbox: draw_offered)

    def rematch(self, _args: str) -> None:
        """Once the game is over: play again with the same opponent at a new table, the colours swapped (against a
        bot at once; a person is asked, and his `rematch` accepts)."""
        state = self.state
        if not state.at_table or state.spectating or state.seat is None:
            raise UsageError(_("rematch: play again, after a game you played"))
        if not state.game_over:
            raise UsageError(_("rematch: the game is not over yet"))
        if state.table_gone:  # (we resigned: the server has us in its lobby, the finished screen stays)
            return self._rematch_after_resigning()
        if (gone := state.opponent_resigned) is not None:  # (the server would refuse it: he is in its lobby)
            raise UsageError(resigned_text(gone))
        self.session.rematch()  # the server answers with the offer's event, or moves us to the new table

    def _rematch_after_resigning(self) -> None:
        """We resigned (`leave`, `resign`): the server has us in its lobby, and its `rematch` needs us at the table.
        Against a bot, at a table we created (its options known: `Session.made`), the client makes the rematch as
        the server would: the same options, the colours swapped, the same bot (play-test's way to end a game
        against the bot quickly is to resign). Against a person: refused, he is asked nothing."""
        state, made = self.state, self.session.made
        seats = (state.view or {}).get("seats") or {}
        other = seats.get(other_seat(state.seat)) if isinstance(seats, dict) else None
        kind = other.split("-bot-")[0] if isinstance(other, str) and "-bot-" in other else None
        if kind not in BOT_KINDS or made is None or made[0] != state.table:
            # TRANSLATORS: `leave` is the command, typed as it is
            raise UsageError(_("rematch: you left that table, resigning (`leave` goes back to the lobby)"))
        seat = other_seat(state.seat)
        state.leave_table()
        # TRANSLATORS: {kind} a bot's kind (planner, greedy, random); {seat} Blue or Yellow
        state.say(_("rematch against the {kind} bot: a new table, you play {seat} this time").format(
            kind=kind, seat=seat_name(seat)))
        self.session.create_table(rematch_options(made[1]), TableSetup(seat=seat, bot=kind))

    def yes(self, _args: str) -> None:
        self._answer(True)

    def no(self, _args: str) -> None:
        self._answer(False)

    def _answer(self, accept: bool) -> None:
        """Answer what the opponent asks of us: his draw offer or his takeback, the one he asked last if both; after
        the game, his rematch offer (`yes` accepts it as `rematch` does, `no` declines it)."""
        state = self.state
        confirming = getattr(self, "_confirming", None)
        if confirming in ("leave", "resign", "draw"):
            # our own question, just asked ("type `resign` again to resign, anything else to play on"), is the one
            # answered: a play-test (pt29 F25) answered it with `no` and was told "nobody asks you anything now";
            # `yes` was told to type the command again (pl31 item 11): it now does what the command's second typing
            # does. (A `yes` typed later answers the opponent's question: a confirmation lasts one line.)
            if accept:
                state.confirm = confirming
                return self._commands[confirming]("")
            # TRANSLATORS: the answer to `no` after `leave`, `resign` or `draw` asked for a confirmation
            state.say(_("you stay in the game"))
        elif state.draw_offered is not None and (state.takeback_asked is None or state.asked_last == "draw"):
            self.session.draw_answer(accept)
        elif state.takeback_asked is not None:
            self.session.takeback_answer(accept)
        elif state.rematch_offered is not None and state.at_table and not state.table_gone:
            if accept:
                return self.session.rematch()
            if not self.session.decline_rematch():
                # TRANSLATORS: `no` to a rematch offer, on a server older than the decline; `leave` is the command
                raise UsageError(_("this server cannot pass a decline on: `leave` goes back to the lobby, which "
                                   "ends the offer"))
            # TRANSLATORS: after `no` to the opponent's rematch offer
            state.say(_("you declined the rematch"))
        else:
            # TRANSLATORS: yes / no are the commands, typed as they are
            raise UsageError(_("yes / no: nobody asks you anything now"))

    def look(self, square: str) -> None:
        view = self.state.view
        if not view or not square:
            # TRANSLATORS: how to type `look`: "look SQUARE" and "look c4" stay as they are
            raise UsageError(_("look SQUARE (at a table), e.g. look c4"))
        square = square.strip()
        # a token's id (`look bWZ`: play-test pl33 looked for his Wizard so and read "bwz: not a square of this
        # board"): the square it stands or lies on, where the board shows it
        square = next((token["square"] for token in view.get("tokens") or ()
                       if isinstance(token, dict) and isinstance(token.get("square"), str)
                       and str(token.get("id", "")).lower() == square.lower()), square)
        rooms = {room.get("slot") or room.get("room") for room in view.get("rooms") or ()}
        if square in rooms and view.get("game") == "cards":  # (its zones are no squares: pt25b F3)
            # TRANSLATORS: `look` given a Card Game room's letter; look ZONE and look b2 stay as they are
            raise UsageError(_("{room} is a room: look ZONE names one of its zones, e.g. look b2").format(room=square))
        if square in rooms:
            # a room's name (A2; a card room's letter): read as the square a2, it was answered "a2: nothing"
            # TRANSLATORS: `look` given a room's name; look SQUARE and look c4 stay as they are
            raise UsageError(_("{room} is a room: look SQUARE names a square, e.g. look c4").format(room=square))
        self.state.say(screens(view).look(view, square.lower()))


SET_FLAGS = ("prison", "mixed", "paladins", "base_paladins", "prison_paladins", "all_sets")
"""The sets a table may name besides the base set (protocol SETS); all but prison and paladins are mixes."""
MIXES = ("mixed", "base_paladins", "prison_paladins", "all_sets")
TEAM_FLAGS = ("mutual", "free")  # PD-TEAM-02: a mix's team building other than the draw (DT-109)


def _as_read(line: str) -> str:
    """A line typed with characters beyond ASCII, as the client's commands, its guards and the server read it
    (engine.core.typed.typed_text: full-width letters, digits and spaces as the ASCII ones), but for what `chat`
    says, kept as typed. Review rv28: the server read `ａｔｔａｃｋ` as `attack` and played the one attack, while the
    client's guard against a verb typed alone (client/session.py `_verb_alone`) compared the text as typed."""
    head, *tail = line.split(None, 1)
    if unicodedata.normalize("NFKC", head[:16]).lower() == "chat":
        return " ".join(["chat", *tail])
    return typed_text(line)


SYNONYMS = {"watch": "spectate", "observe": "spectate", "list": "refresh", "tables": "refresh", "ls": "refresh",
            "sit": "join", "say": "chat", "exit": "quit"}
"""Words players of other game servers type for a command, and the command suggested for them (play-test pt28 F2:
`watch 1` and `list` were answered "unknown command" with no suggestion)."""


def parse_table_options(args: str) -> TableOptions:
    """`vp=6 beginner timers private prison` -> TableOptions (one set at most: prison, mixed, paladins);
    `cards [tutorial=2] [private]` -> a card-game table."""
    words = args.split()
    if "cards" in words:
        return _card_table_options([w for w in words if w != "cards"])
    if any(word in SCENARIOS for word in words):
        return _scenario_table_options(words)
    target_vp, flags = 5, set()
    for word in words:
        if word.startswith("vp="):
            if word[3:] not in ("5", "6", "7", "8"):
                # TRANSLATORS: a VP target `create` does not take ({word}: as typed, e.g. 'vp=9'); the targets a
                # table may have are typed as they are (vp=5, ...)
                raise UsageError(_("{word} is no VP target of a table: vp=5, vp=6, vp=7 or vp=8").format(
                    word=repr(word)))
            target_vp = int(word[3:])
        elif word in ("beginner", "timers", "private", *TEAM_FLAGS, *SET_FLAGS):
            flags.add(word)
        else:
            # (the Card Game too: play-test pl31 read this usage and found no `create cards` in it)
            raise UsageError(_not_an_option(word, "create [vp=5..8] [beginner] [timers] [private] [{sets}] "
                                                  "[mutual|free] | create prison-1..prison-5 [timers] [private] | "
                                                  "create cards [tutorial=1|2|3 | standard mutual|full|draft] "
                                                  "[timers] [secret] [private]"
                                            .format(sets="|".join(SET_FLAGS)),
                                            ("beginner", "timers", "private", "cards", *TEAM_FLAGS, *SET_FLAGS,
                                             *SCENARIOS)))
    if len(flags & set(SET_FLAGS)) > 1:
        # TRANSLATORS: {sets}: the set options of `create` (prison, mixed, ...), typed as they are
        raise UsageError(_("one set a table: {sets}").format(sets=", ".join(SET_FLAGS)))
    teams = [word for word in TEAM_FLAGS if word in flags]
    if len(teams) > 1:
        # TRANSLATORS: mutual and free are options of `create`, typed as they are
        raise UsageError(_("one team building a table: mutual (picked in turn) or free (each his own, in secret)"))
    if teams and not flags & set(MIXES):
        # TRANSLATORS: {option}: mutual or free, an option of `create`; {sets}: the mixed sets' options (mixed, ...)
        raise UsageError(_("{option} team building is for a mixed table (PD-TEAM-02): {sets}").format(
            option=teams[0], sets=", ".join(MIXES)))
    if "prison" in flags and ("beginner" in flags or target_vp == 8 or "mixed" in flags):
        raise UsageError(_("a Prison table is not a beginner game and plays to 5, 6 or 7 VP (PR-OPT-02)"))
    if flags & {"paladins", *MIXES} and "beginner" in flags:
        raise UsageError(_("the beginner game is the base set's"))
    set_name = next((name for name in SET_FLAGS if name in flags), None)
    return TableOptions(target_vp=target_vp, beginner="beginner" in flags, timers="timers" in flags,
                        private="private" in flags, set_name=set_name, teams=teams[0] if teams else None)


def _scenario_table_options(words: list[str]) -> TableOptions:
    """`prison-1 [timers] [private]`: a Prison introductory scenario (PR-SCEN), which imposes its set, rooms, teams
    and VP target (PD-TEAM-SCEN-01); `prison` may be said with it, nothing else of a table's game."""
    scenarios = [word for word in words if word in SCENARIOS]
    if len(scenarios) > 1:
        # TRANSLATORS: {scenarios}: the scenarios `create` takes (prison-1, ...), typed as they are
        raise UsageError(_("one scenario a table: {scenarios}").format(scenarios=", ".join(SCENARIOS)))
    flags = set()
    for word in words:
        if word in ("timers", "private"):
            flags.add(word)
        elif word == "beginner":
            raise UsageError(_("a scenario is not a beginner game"))
        elif word.startswith("vp=") or word in TEAM_FLAGS or word in SET_FLAGS and word != "prison":
            # TRANSLATORS: a table option given with a Prison scenario ({word}: vp=6, mutual, mixed...)
            raise UsageError(_("a scenario imposes its set, rooms, teams and VP target (PD-TEAM-SCEN-01): no {word} "
                               "with it").format(word=word))
        elif word not in SCENARIOS and word != "prison":
            raise UsageError(_not_an_option(word, "create prison-1..prison-5 [timers] [private]",
                                            ("timers", "private", *SCENARIOS)))
    return TableOptions(scenario=scenarios[0], timers="timers" in flags, private="private" in flags)


def _not_an_option(word: str, usage: str, known: tuple[str, ...] = ()) -> str:
    """The refusal of a word `create` does not know: the word, the option among `known` it was likely meant to be
    (`timer` -> `timers`, play-test pt28 F2), then how `create` is typed."""
    near = get_close_matches(word.lower(), known, n=1, cutoff=0.75)
    if near:
        # TRANSLATORS: `create` with a word it does not know: {word} the word as typed, {suggestion} an option of
        # create, typed as it is, {usage} how `create` is typed
        return _("{word} is not an option of create: did you mean {suggestion}? {usage}").format(
            word=repr(word), suggestion=repr(near[0]), usage=usage)
    # TRANSLATORS: `create` with a word it does not know: {word} the word as typed, {usage} how `create` is typed
    return _("{word} is not an option of create; {usage}").format(word=repr(word), usage=usage)


def _card_table_options(words: list[str]) -> TableOptions:
    """`cards [tutorial=N] [timers] [private]` or `cards standard [mutual|full|draft] [timers] [private]` (CG-TUT,
    CG-SCEN, CG-SEL; `timers`: CG-OPT-01/02)."""
    tutorial, scenario, teams = None, None, None
    for word in words:
        if word.startswith("tutorial=") and word[9:] in ("1", "2", "3"):
            tutorial = int(word[9:])
        elif word == "standard":
            scenario = "standard"
        elif word in ("mutual", "full", "draft"):
            if teams not in (None, word):  # (a play-test's `standard draft mutual` got the last one, unsaid)
                # TRANSLATORS: mutual, full and draft are options of `create cards standard`, typed as they are
                raise UsageError(_("one team selection per table: mutual, full or draft (CG-SEL)"))
            teams = word
        elif word not in ("private", "timers", "secret"):
            # TRANSLATORS: how to create a Card Game table: the commands and the word secret (an option) are typed
            # as they are; translate only the explanations
            raise UsageError(_not_an_option(word, _(
                "create cards [tutorial=1|2|3] | create cards standard [mutual|full|draft] [timers] [secret] "
                "[private]: The Card Game's tutorials (CG-TUT1..3) or its standard scenario; secret: the secret "
                "objects variant (CG-OPT-03)"), ("standard", "mutual", "full", "draft", "private", "timers", "secret")))
    if scenario is None and teams is not None:
        # TRANSLATORS: {teams}: mutual, full or draft; "create cards standard {teams}" is a command, typed as it is
        raise UsageError(_("teams are selected in a scenario: create cards standard {teams}").format(teams=teams))
    if scenario is not None and tutorial is not None:
        raise UsageError(_("a tutorial or the standard scenario, not both"))
    flags = {"private": "private" in words, "timers": "timers" in words, "secret_objects": "secret" in words}
    if scenario is not None:
        return TableOptions(game="cards", scenario=scenario, teams=teams or "mutual", **flags)
    return TableOptions(game="cards", tutorial=tutorial or 1, **flags)
