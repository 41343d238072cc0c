"""dt-client, the terminal client of Dungeon Twister Online.

  dt-client connect HOST:PORT [--name NAME] [--spectate TABLE [--code CODE]]     a server's lobby, or watch one of its tables
  dt-client play [--bot planner|greedy|random] [--name NAME] [--vp N] [--beginner] [--set base|prison|mixed|paladins|...]
                 [--sets base,prison,pd] [--teams random|mutual|free|scenario]
                 [--scenario prison-1..prison-5] [--seat B|Y]
  dt-client play --game cards [--tutorial 1|2|3 | --scenario standard [--teams mutual|full|draft]]
                 [--bot planner|greedy|random] [--seat B|Y]
                                                                  a local game against a bot (the board game, or
                                                                  The Card Game's tutorials)
  dt-client replay FILE | TABLE --server HOST:PORT                step through a game record
  dt-client discover [--port N]                                   list the servers of the local network

`connect` takes back the seat kept from an earlier run (crashed, killed, or quit during a game) on the same
server under the same name: see held.py. `play` starts a server subprocess on a free local port, creates a table,
sits at it, seats the bot in the other seat and opens the game screen; the server stops when the client exits. The UI (prompt_toolkit, asyncio) and the
networking (trio) share one loop: see guest.py.
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import signal
import sys
from typing import TYPE_CHECKING

from .i18n import N_, _, ngettext

SCENARIOS = ("prison-1", "prison-2", "prison-3", "prison-4", "prison-5")
"""`--scenario` choices: the protocol's TableOptions scenarios (protocol/msg_lobby.py SCENARIOS; a test checks they
are the same), written out so that `--help` imports nothing heavy."""
CARD_SCENARIOS = ("standard",)
"""The card game's scenario cards (protocol/msg_lobby.py CARD_SCENARIOS, checked by the same test)."""

if TYPE_CHECKING:
    from .session import Session
    from .ui import ClientUI

# Only the command line is imported at start: the protocol, the engine, trio and prompt_toolkit are imported by the
# command that needs them, so `dt-client --help` (and a mistyped command) answers at once.

DEFAULT_PORT = 7777
"""protocol.DEFAULT_PORT, written out so that parsing the command line imports no protocol (a test keeps the two
equal)."""
NAME_LIMIT = 32
TABLE_LIMIT = 64
"""protocol.kinds.NAME and TABLE_ID's limits, written out like DEFAULT_PORT (a test keeps them equal)."""
QUIT_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals on which the client exits like on `quit`, restoring the terminal (a held seat stays held)."""


def main(argv: list[str] | None = None) -> int:
    from . import i18n

    try:  # the language first, so that --help speaks it too
        i18n.use(language_asked(sys.argv[1:] if argv is None else argv))
    except ValueError:
        pass  # an unknown --lang: the parser refuses it below, in English
    argparse._ = i18n._  # argparse's own words ("usage:", "options"...), those of ARGPARSE_TEXTS translated
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # (what `play` says to type to continue its game)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        code = args.run(args)
        sys.stdout.flush()  # (a reader gone: its error comes here, not at the interpreter's exit)
        return code
    except BrokenPipeError:  # the reader left (`dt-client verify X | head -2`): stop quietly, as dt-engine does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13  # SIGPIPE


ARGPARSE_TEXTS = (N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
                  N_("%(prog)s: error: %(message)s\n"), N_("argument %(argument_name)s: %(message)s"),
                  N_("invalid choice: %(value)r (choose from %(choices)s)"),
                  N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"))
"""argparse's words that a `dt-client --help` or a mistyped command line shows, for the catalogues (argparse asks
gettext for them in its own domain, which has no translations: main() hands it ours)."""


def language_asked(argv: list[str]) -> str | None:
    """The `--lang` of the command line (wherever it stands: `dt-client --lang fr play`, `dt-client play --lang
    fr`), None if not given (then the environment's language)."""
    for index, word in enumerate(argv):
        if word == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


class _PrintVersion(argparse.Action):
    """`--version`: the release, read only when asked (the protocol package it lives in is not imported for
    `--help`: issue 7's cold start; for `--version`, its versions module alone: the package's names load lazily)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from dungeon_twister.protocol.versions import release

        print(f"dt-client {release()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from .i18n import LANGUAGES

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=list(LANGUAGES), default=argparse.SUPPRESS,
                        help=_("the client's language: {languages}; by default the locale's (LANGUAGE, LC_ALL, "
                               "LC_MESSAGES, LANG), else English").format(
                            languages=", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())))
    parser = argparse.ArgumentParser(
        prog="dt-client", parents=[common],
        # TRANSLATORS: connect, play and help are commands, typed as they are: keep them in English.
        description=_("Dungeon Twister Online in a terminal: join a server's lobby (connect), or "
                      "play against a bot on a local server (play). In the client, type help."))
    parser.add_argument("--version", action=_PrintVersion, nargs=0, default=argparse.SUPPRESS,
                        help=_("show the release and exit"))
    commands = parser.add_subparsers(dest="command")

    def command(name: str, **kwargs) -> argparse.ArgumentParser:
        # (its line of the list is its --help's description too: `play --help` and `discover --help` had none)
        return commands.add_parser(name, parents=[common], description=kwargs.get("help"), **kwargs)

    connect = command("connect", help=_("connect to a server's lobby"))
    connect.add_argument("address", type=parse_address, metavar="HOST:PORT",
                         help=_("the server (the port defaults to {port})").format(port=DEFAULT_PORT))
    # TRANSLATORS: {name}: the login name the client takes when --name is not given
    name_help = _("your display name (default: your login name, {name})").format(name=default_name())
    connect.add_argument("--name", type=display_name, default=default_name(), help=name_help)
    connect.add_argument("--spectate", metavar="TABLE", type=table_word, help=_(
        "watch this table (its id, or the number in its id: 4 for t4-9f2c01ab) instead of joining the lobby"))
    connect.add_argument("--code", metavar="CODE", help=_("with --spectate: the join code of a private table"))
    connect.set_defaults(run=connect_command)
    play = command("play", help=_("play against a bot on a local server"))
    # TRANSLATORS: the values of an option (planner, greedy, random, base, mutual, cards...) are typed as they are: keep them.
    play.add_argument("--bot", choices=["planner", "greedy", "random"], default="planner", help=_(
        "the opponent: planner (default), greedy (easier), random (easiest)"))
    play.add_argument("--name", type=display_name, default=default_name(), help=name_help)
    play.add_argument("--vp", type=int, choices=range(5, 9), default=5, metavar="N", help=_("VP to win (5-8)"))
    play.add_argument("--beginner", action="store_true", help=_("the beginner game (6 rooms, 6 characters)"))
    play.add_argument("--set", choices=["base", "prison", "paladins", "mixed", "base_paladins", "prison_paladins",
                                        "all_sets"], default="base", dest="set_name",
                      help=_("the set: the base set (default), Dungeon Twister Prison, Paladins & Dragons, or a mix "
                             "(mixed: base and Prison; base_paladins, prison_paladins, all_sets): 8 characters and 6 "
                             "objects from the sets in use, the same for each side"))
    play.add_argument("--sets", type=parse_sets, dest="sets", metavar="base,prison,pd",
                      help=_("the sets in use, instead of --set: base, prison, pd (Paladins & Dragons), any mix"))
    play.add_argument("--teams", choices=["random", "mutual", "free", "scenario", "full", "draft"], default="random",
                      help=_("a mix's teams: drawn at random (default), picked in turn by the players and the same "
                             "for both (mutual), or each chosen in secret, 8 characters, 6 objects and 2 room pairs "
                             "(free); scenario: the teams and rooms --scenario imposes (PD-TEAM-SCEN-01); with --game "
                             "cards: full (each side chooses its team in secret, CG-SEL-FULL-01) or draft (picked in "
                             "turn, each pick taking the other's same card out, CG-SEL-DRAFT-01)"))
    play.add_argument("--scenario", choices=list(SCENARIOS + CARD_SCENARIOS),
                      help=_("with --game cards: standard (the card game's scenario card, 5 VP); else a Prison "
                             "introductory scenario (its own rooms, "
                             "characters, rules and goal; it sets the set and the VP target)"))
    play.add_argument("--seat", choices=["B", "Y"], default="B", help=_("your colour (default B, Blue)"))
    play.add_argument("--game", choices=["board", "cards"], default="board",
                      help=_("the board game (default) or The Card Game (cards)"))
    play.add_argument("--tutorial", type=int, choices=[1, 2, 3], metavar="N",
                      help=_("with --game cards: tutorial 1 (movement, default), 2 (melee) or 3 (ranged combat)"))
    play.add_argument("--timers", action="store_true",
                      help=_("2 minutes a turn, 5 seconds for a combat card (BG-OPT-02..04, CG-OPT-01/02)"))
    play.add_argument("--secret-objects", action="store_true",
                      help=_("with --game cards: what the bot's characters carry stays unseen (CG-OPT-03)"))
    play.add_argument("--new", action="store_true",
                      help=_("start a new game even if an earlier play with these options left one unfinished (a "
                             "crash, quit), which is then given up; without it, that game goes on"))
    play.set_defaults(run=play_command)
    discover = command("discover", help=_("list the servers of the local network (LAN parties)"))
    discover.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                          help=_("their port (default {port})").format(port=DEFAULT_PORT))
    discover.add_argument("--wait", type=wait_seconds, default=1.5,
                          help=_("seconds to wait for answers (default 1.5)"))
    discover.set_defaults(run=discover_command)
    replay = command("replay", help=_("step through a game record: a file, or a finished game of a server"),
                     # TRANSLATORS: the keys of the replay's screen, as they are written on the keyboard
                     epilog=_("keys: → or space, the next action; ←, the one before; PgUp and PgDn, 10 at a time; "
                              "Home and End, the start and the end; q quits"))
    replay.add_argument("file", metavar="FILE|TABLE", help=_("a record file (a 'game seed=...' header, then one "
                                                             "'B: action' line each), or with --server a finished "
                                                             "game's table id"))
    replay.add_argument("--server", type=parse_address, metavar="HOST:PORT",
                        help=_("fetch the record of the finished game TABLE from this server"))
    replay.add_argument("--code", metavar="CODE", help=_("with --server: the join code of a private table"))
    replay.set_defaults(run=replay_command)
    verify = command("verify", help=_("check a game record: every action legal, the deal from the committed "
                                      "seed, every secret choice as committed"))
    verify.add_argument("file", metavar="FILE|TABLE",
                        help=_("a record file, or with --server a finished game's table"))
    verify.add_argument("--server", type=parse_address, metavar="HOST:PORT",
                        help=_("fetch the record of the finished game TABLE from this server"))
    verify.add_argument("--code", metavar="CODE", help=_("with --server: the join code of a private table"))
    verify.set_defaults(run=verify_command)
    return parser


SETS_OF = {frozenset({"base"}): "base", frozenset({"prison"}): "prison", frozenset({"pd"}): "paladins",
           frozenset({"base", "prison"}): "mixed", frozenset({"base", "pd"}): "base_paladins",
           frozenset({"prison", "pd"}): "prison_paladins", frozenset({"base", "prison", "pd"}): "all_sets"}
"""--sets: the sets in use -> the set (or mix) played (PD-TEAM-02)."""


def parse_sets(text: str) -> str:
    names = {{"paladins": "pd"}.get(word.strip(), word.strip()) for word in text.split(",") if word.strip()}
    set_name = SETS_OF.get(frozenset(names))
    if set_name is None:
        raise argparse.ArgumentTypeError(_("expected sets among base, prison, pd (comma-separated), got {text}")
                                         .format(text=repr(text)))
    return set_name


def parse_address(text: str) -> tuple[str, int]:
    if text.count(":") == 1 and not text.startswith("["):  # HOST:PORT (an IPv6 address has more colons)
        host, _colon, port = text.partition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:  # "127.0.0.1:abc", ":7801", "host:"
            raise argparse.ArgumentTypeError(_("expected HOST:PORT, got {text}").format(text=repr(text)))
        return host, int(port)
    if text.count(":") > 1 and not text.startswith("["):  # an IPv6 address alone ("::1"); with a port: [::1]:7777
        return text, DEFAULT_PORT
    match = re.match(r"^\[?([^\]]+?)\]?(?::(\d{1,5}))?$", text)
    if not match or (match.group(2) and not 0 < int(match.group(2)) < 65536):
        raise argparse.ArgumentTypeError(_("expected HOST:PORT, got {text}").format(text=repr(text)))
    return match.group(1), int(match.group(2) or DEFAULT_PORT)


def port_number(text: str) -> int:
    """`discover --port`: a port a datagram can be sent to (play-test pt27 F14: 99999 ended in sendto's
    OverflowError, a traceback)."""
    if not text.strip().isdigit() or not 0 < int(text) < 65536:
        # TRANSLATORS: a refused command-line value; {text} is what was typed
        raise argparse.ArgumentTypeError(_("expected a port from 1 to 65535, got {text}").format(text=repr(text)))
    return int(text)


def wait_seconds(text: str) -> float:
    """`discover --wait`: seconds, 0 or more (play-test pt27 F14: -1 ended in trio's ValueError, a traceback)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):  # (also NaN, which compares false to everything)
        # TRANSLATORS: a refused command-line value; {text} is what was typed
        raise argparse.ArgumentTypeError(_("expected seconds, 0 or more, got {text}").format(text=repr(text)))
    return seconds


def display_name(text: str) -> str:
    """A display name the server takes (the protocol's rule, protocol/names.py): a play-test's name with a bidi
    character, or a space at its end, was refused only once connected, and the player told to quit and restart."""
    if not 1 <= len(text) <= NAME_LIMIT:
        raise argparse.ArgumentTypeError(_("a name has 1 to {limit} characters").format(limit=NAME_LIMIT))
    from dungeon_twister.protocol.names import name_problem

    problem = name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(_(problem))
    return text


def table_word(text: str) -> str:
    """A table's id or number as typed: no table's id is longer than the protocol lets one be (a longer word could
    not even be sent: a play-test saw the encoder's English error)."""
    if len(text) > TABLE_LIMIT:
        raise argparse.ArgumentTypeError(_("a table's id has at most {limit} characters").format(limit=TABLE_LIMIT))
    return text


def default_name() -> str:
    try:
        return getpass.getuser()[:NAME_LIMIT] or "player"
    except (KeyError, OSError):
        return "player"


def connect_command(args: argparse.Namespace) -> int:
    from dungeon_twister.protocol import Role, Spectate

    from .held import SeatFile, state_dir
    from .identity import load_or_create
    from .names import is_table_number
    from .session import Session
    from .state import ClientState
    from .tls import KNOWN_SERVERS, KnownServers, tls_connector

    host, port = args.address
    if args.spectate and is_table_number(args.spectate):  # `--spectate 2`: the table list says which table
        session = Session(ClientState(args.name), Role.SPECTATOR)
        session.spectate_listed = args.spectate
    elif args.spectate:  # (a private table is not listed: by its id, with --code)
        session = Session(ClientState(args.name), Role.SPECTATOR,
                          then=(Spectate(args.spectate, join_code=args.code),))
    else:  # a seat kept from an earlier run on this server under this name is taken back first
        session = Session(ClientState(args.name), seat_file=SeatFile(f"{host}:{port}", args.name))
    try:
        session.identity = load_or_create(state_dir())  # the user's key: the server binds the name to it (identity.py)
        session.identity_dir = state_dir()
    except (ValueError, OSError) as error:
        from .printable import printable

        print("dt-client:", printable(str(error)), file=sys.stderr)
        return 1
    # TLS when the server offers it, its certificate pinned on first use (tls.py); plain TCP otherwise
    def note(text: str) -> None:
        session.state.link_note = text
        session.state.say(text)

    connect = tls_connector(KnownServers(state_dir() / KNOWN_SERVERS), note)
    code = run_client(session, host, port, connect)
    left = held_seat_line(session, f"{host}:{port}" if ":" not in host else f"[{host}]:{port}", args.name,
                          getattr(args, "lang", None))
    if left:
        print(left)
    return code


def held_seat_line(session, server: str, name: str, lang: str | None = None) -> str | None:
    """What to say in the shell as the client ends with a seat the server holds (`quit`, Ctrl-D in a game): the
    game goes on without him for a while, and how to take the seat back. A play-test's player typed `quit` in a
    game: the client ended with nothing said, and his game was lost 60 s later (play-test pt28 W3)."""
    import shlex

    held, state = session.held, session.state
    if (held is None or state.spectating or not (state.view or {}).get("started") or state.game_over
            or session.grace <= 0):
        return None
    language = f"--lang {shlex.quote(lang)} " if lang else ""
    line = f"dt-client {language}connect {server} --name {shlex.quote(name)}"
    from .printable import printable

    # TRANSLATORS: printed in the shell as the client ends; {line} is a command line: keep it as it is
    return printable(_("your seat at table {table} is held {seconds} s: `{line}` takes it back (after that, the game "
                       "is lost)").format(table=held.table, seconds=session.grace, line=line))  # (the table's id is
    # the server's, escaped as the screens show text: a hostile one rewrote the terminal's title, review rv28b)


def play_command(args: argparse.Namespace) -> int:
    from dungeon_twister.protocol import TableOptions

    if args.game == "cards" or args.tutorial is not None:
        return _play_cards(args)
    if args.scenario in CARD_SCENARIOS or args.teams in ("full", "draft"):
        print("dt-client:", _("--scenario standard and --teams full or draft are The Card Game's: add --game cards"),
              file=sys.stderr)
        return 2
    if args.sets is not None:
        if args.set_name != "base" and args.set_name != args.sets:
            print("dt-client:", _("give --set or --sets, not both"), file=sys.stderr)
            return 2
        args.set_name = args.sets
    if args.set_name != "base" and args.beginner:
        print("dt-client:", _("the beginner game is the base set's"), file=sys.stderr)
        return 2
    if args.set_name == "prison" and args.vp == 8 and not args.scenario:
        print("dt-client:", _("Prison is played to 5, 6 or 7 VP (PR-OPT-02)"), file=sys.stderr)
        return 2
    if args.scenario and args.beginner:
        print("dt-client:", _("a scenario is not a beginner game"), file=sys.stderr)
        return 2
    if args.teams == "scenario":  # PD-TEAM-SCEN-01: the scenario imposes teams and rooms; nothing is chosen
        if not args.scenario:
            print("dt-client:", _("--teams scenario plays the teams a scenario imposes: name it with --scenario"),
                  file=sys.stderr)
            return 2
        args.teams = "random"
    elif args.scenario and args.teams != "random":
        print("dt-client:", _("a scenario imposes its teams (PD-TEAM-SCEN-01): no --teams mutual or free with it"),
              file=sys.stderr)
        return 2
    if args.teams != "random" and args.set_name in ("base", "prison", "paladins"):
        print("dt-client:", _("--teams {teams} is for a mixed set, two or three sets (PD-TEAM-02)")
              .format(teams=args.teams), file=sys.stderr)
        return 2
    if args.secret_objects:
        print("dt-client:", _("--secret-objects is The Card Game's variant (CG-OPT-03): add --game cards"),
              file=sys.stderr)
        return 2
    options = TableOptions(target_vp=args.vp, beginner=args.beginner,
                           set_name=None if args.set_name == "base" else args.set_name, scenario=args.scenario,
                           teams=None if args.teams == "random" else args.teams, timers=args.timers)
    return _play_local(args, options)


BOARD_ONLY_ARGS = {"vp": 5, "beginner": False, "set_name": "base", "sets": None}
"""`play` arguments of the board game only, and their defaults."""


def _play_cards(args: argparse.Namespace) -> int:
    """`play --game cards [--tutorial N]`: a card-game table (the protocol's `game: cards`) against the bot."""
    from dungeon_twister.protocol import TableOptions

    if args.game != "cards":
        print("dt-client:", _("--tutorial is The Card Game's: add --game cards"), file=sys.stderr)
        return 2
    given = [name for name, default in BOARD_ONLY_ARGS.items() if getattr(args, name) != default]
    if given:
        flags = ", ".join("--" + ("set" if name == "set_name" else name) for name in given)
        print("dt-client:", _("{options}: the board game's, not The Card Game's (its tutorial sets its goal)")
              .format(options=flags), file=sys.stderr)
        return 2
    if args.scenario is None:
        if args.teams != "random":
            print("dt-client:", _("--teams goes with a scenario: --scenario standard"), file=sys.stderr)
            return 2
        return _play_local(args, TableOptions(game="cards", tutorial=args.tutorial or 1, **_card_flags(args)))
    if args.scenario not in CARD_SCENARIOS or args.tutorial is not None:
        print("dt-client:", _("The Card Game plays --tutorial 1|2|3 or --scenario standard"), file=sys.stderr)
        return 2
    if args.teams not in ("random", "mutual", "full", "draft"):
        print("dt-client:", _("a card-game scenario's teams are --teams mutual, full or draft (CG-SEL)"),
              file=sys.stderr)
        return 2
    teams = "mutual" if args.teams == "random" else args.teams
    return _play_local(args, TableOptions(game="cards", scenario=args.scenario, teams=teams, **_card_flags(args)))


def _card_flags(args: argparse.Namespace) -> dict:
    """The card table's optional rules asked for: timers (CG-OPT-01/02), secret objects (CG-OPT-03)."""
    return {"timers": args.timers, "secret_objects": args.secret_objects}


def _play_local(args: argparse.Namespace, options) -> int:
    """A game against the bot on an embedded server; or, when an earlier `play` with the same options left its game
    unfinished (a crash, `quit`), that game again (local_server.unfinished_game), unless --new."""
    import shlex
    import shutil

    from dungeon_twister.protocol import CreateTable

    from .local_server import (LocalServer, ServerStartError, fresh_data_dir, games_dir, remember_play, seat_file,
                               unfinished_game)
    from .session import Session, TableSetup
    from .state import ClientState

    game = f"{options!r} seat={args.seat} bot={args.bot}"
    data = unfinished_game(args.name, game)
    if data is not None and args.new:
        shutil.rmtree(data, ignore_errors=True)  # the player gives that game up
        data = None
    state = ClientState(args.name, local=True)
    if data is None:
        data = fresh_data_dir()
        remember_play(data, args.name, game)
        session = Session(state, then=(CreateTable(options),), seat_file=seat_file(data, args.name))
        session.setup = TableSetup(seat=args.seat, bot=args.bot)
    else:
        session = Session(state, seat_file=seat_file(data, args.name))  # takes the kept seat back
        state.log.append(_("continuing your unfinished game against the bot ('leave' gives it up; dt-client play "
                           "--new starts another)"))
    records = set(games_dir().glob("*.txt"))
    try:
        with LocalServer(data=data, player=args.name) as (host, port):
            code = run_client(session, host, port)
    except ServerStartError as error:
        print(f"dt-client: {error}", file=sys.stderr)
        return 1
    for record in sorted(set(games_dir().glob("*.txt")) - records):  # the server wrote it as this run's game ended
        # TRANSLATORS: on leaving `dt-client play`; {path} a file; "dt-client replay {path}" is a command line
        print(_("the record of your game against the bot: {path} (dt-client replay {path} steps through it "
                "again)").format(path=record))
    if seat_file(data, args.name).path.exists():  # (the game did not end: the server kept its directory)
        # (a play-test's `quit` left with nothing said, and a first-time player may think the game lost; then
        # "dt-client play with the same options" did not say which: without the --name given, another game began,
        # play-test pt29 F18)
        again = shlex.join(["dt-client", *(word for word in getattr(args, "argv", ["play"]) if word != "--new")])
        # TRANSLATORS: on leaving `dt-client play` with its game unfinished; {command} is a command line, as typed
        print(_("your game against the bot is kept: {command} continues it (--new starts another)").format(
            command=again))
    return code


def discover_command(args: argparse.Namespace) -> int:
    import trio

    from .discovery import discover

    found = trio.run(discover, args.port, args.wait)
    if not found:
        # (play-test pt26 F12: the hint alone repeated the port typed when the server's discovery was off)
        print(_("no server answered on UDP port {port} (a server started with --port N answers on N: try "
                "--port N; one started with discovery off answers nothing: ask for its address)").format(
            port=args.port))
        return 1
    from .printable import printable
    from .wrap import cell

    for server in found:
        # what a machine of the LAN answered, as the screens show names: no control or bidi character reaches the
        # terminal raw, and the column is counted in the cells a name takes (a wide-character name kept it)
        tls = " · TLS " + printable(server.tls) if server.tls else ""
        print(f"{cell(printable(server.name), 24)} dt-client connect {server.address}{tls}")
    return 0


def replay_command(args: argparse.Namespace) -> int:
    from .replay import run_replay

    from .printable import printable
    from .replay import stopped_text

    replay = _replay_of(args, "replay")
    if replay is None:
        return 1
    if replay.stopped is not None:  # (said before the screen opens too, as `verify` would say it)
        print("dt-client:", printable(stopped_text(replay.stopped)), file=sys.stderr)
    try:
        run_replay(replay)
    except EOFError:  # its input is no terminal (`< /dev/null`, a closed pipe): a traceback said so (audit rp33)
        # TRANSLATORS: "dt-client verify" is a command, typed as it is
        print("dt-client:", _("the replay's screen needs a terminal to read its keys from (dt-client verify "
                              "prints the record's checks without one)"), file=sys.stderr)
        return 1
    return 0


def verify_command(args: argparse.Namespace) -> int:
    """`dt-client verify FILE|TABLE`: what `replay` checks, printed; exit 0 if everything holds, else 1. What comes
    from the record (a file, or a server's answer) is printed as the screens show text (printable.py)."""
    from .printable import printable
    from .replay import ending_text

    replay = _replay_of(args, "verify")
    if replay is None:
        return 1
    n = len(replay.steps)
    if replay.family.name == "cards":
        legal = ngettext("{file}: {n} action of the card game, legal",
                         "{file}: {n} actions of the card game, every one legal", n)
    else:
        legal = ngettext("{file}: {n} action of the board game, legal",
                         "{file}: {n} actions of the board game, every one legal", n)
    # a server's record by the table it was asked for by (`verify 1` names t1-0d67fc3c), a file by its path
    print(legal.format(file=replay.table if args.server is not None and replay.table else args.file, n=n))
    if replay.deal is None:
        print(_("deal: the record carries no commitment to its seed (nothing to check)"))
    elif replay.deal_mixed and replay.deal:
        print(_("deal: the seed mixes the server's seed, which opens its commitment made before the game, with the "
                "players' contributions: every random draw follows from it"))
    elif replay.deal_mixed:
        print(_("deal: NOT VERIFIED: the seed is not the mix of the server's committed seed and the players' "
                "contributions"))
    elif replay.deal:
        print(_("deal: the seed opens the commitment the server made before the game: every random draw follows "
                "from it"))
    else:
        print(_("deal: NOT VERIFIED: the seed does not open the commitment"))
    verified, problems = replay.rounds
    print(ngettext("secret choices: {n} reveal opens its commitment",
                   "secret choices: {n} reveals open their commitment", verified).format(n=verified)
          + "".join(_("; NOT VERIFIED: {problem}").format(problem=printable(str(problem))) for problem in problems))
    ending = replay.ending(len(replay.steps))
    if ending is not None:
        print(printable(ending_text(*ending)))
    elif replay.result:
        print(_("outcome: {result}").format(result=printable(str(replay.result))))
    else:  # (a play-test's record cut after 30 lines was "every one legal" and nothing more)
        print(_("the game is not over where the record ends: a game still being played, or a record cut short"))
    return 0 if replay.deal is not False and not problems else 1


def _replay_of(args: argparse.Namespace, command: str):
    """The Replay of the record `args.file` (or of the finished game `args.file` on `args.server`); None, with the
    reason on stderr, if it cannot be had or is not a game the rules allow (`command`: replay or verify, as typed)."""
    from .printable import printable
    from .replay import EngineError, NoRecord, NotARecord, Replay, fetch_record, load

    # the record's name as the lines below say it: a table's id no longer than any id (a play-test's 5,000 nines
    # were echoed whole), a file's path whole; either with its control characters escaped
    named = args.file if args.server is None or len(args.file) <= TABLE_LIMIT else args.file[:TABLE_LIMIT] + "…"
    shown = printable(named)
    try:
        if args.server is not None:
            import trio

            from .held import state_dir
            from .network import connect_error_text
            from .tls import KNOWN_SERVERS, KnownServers, PinMismatch, tls_connector

            if len(args.file) > TABLE_LIMIT:  # (no table's id is that long: it could not even be asked for)
                raise NoRecord(_("there is no table {table}").format(table=repr(named)))
            # what the connection says (a certificate pinned on first use, plain TCP) goes to stderr, as `connect`
            # shows it: a play-test found the pin made silently by `verify`, before any `connect` to that server
            connect = tls_connector(KnownServers(state_dir() / KNOWN_SERVERS),
                                    lambda text: print("dt-client:", printable(text), file=sys.stderr))
            try:
                text = trio.run(fetch_record, connect, *args.server, args.file, args.code)
            except OSError as error:  # (the server, not the record: "cannot read" said otherwise, in English)
                reason = str(error) if isinstance(error, PinMismatch) else connect_error_text(error)
                print("dt-client:", _("cannot reach the server: {error}").format(error=printable(reason)),
                      file=sys.stderr)
                return None
            replay = Replay.of(text, partial=command == "replay")
        else:
            replay = load(args.file, partial=command == "replay")
    except NoRecord as error:
        print("dt-client:", _("no record of {file}: {error}").format(file=shown, error=printable(str(error))),
              file=sys.stderr)
        return None
    except NotARecord as error:
        # TRANSLATORS: {file} a file's path; {error} why it is no game record
        print("dt-client:", _("{file} is not a game record: {error}").format(file=shown, error=str(error)),
              file=sys.stderr)
        return None
    except OSError as error:
        why = file_error_text(error)
        if args.server is None and isinstance(error, FileNotFoundError) and TABLE_LIKE.fullmatch(args.file):
            # (play-test pt27 F10: `dt-client replay 1`, a table's number, read "cannot read 1: no such file")
            # TRANSLATORS: after "no such file"; {command} is a command line, typed as it is (HOST:PORT too)
            why += " " + _("(a server's game: {command})").format(
                command=f"dt-client {command} {args.file} --server HOST:PORT")
        print("dt-client:", _("cannot read {file}: {error}").format(file=shown, error=why), file=sys.stderr)
        return None
    except EngineError as error:
        from .replay import record_error_text

        print("dt-client:", _("{file} is not a game record the rules allow: {error}")
              .format(file=shown, error=printable(record_error_text(error))), file=sys.stderr)
        return None
    return replay


TABLE_LIKE = re.compile(r"t?[0-9]+(-[0-9a-f]+)?")
"""A table as `replay` names it (7, t7, t7-0d67fc3c), to tell from a file's name when no file has it."""


def file_error_text(error: OSError) -> str:
    """Why a file could not be read, in the reader's language for the common causes, else the system's words (a
    play-test read "No such file or directory" in a German line)."""
    import errno

    if error.errno == errno.ENOENT:
        return _("no such file")
    if error.errno in (errno.EACCES, errno.EPERM):
        return _("permission denied")
    if error.errno == errno.EISDIR:
        return _("it is a folder, not a file")
    return error.strerror or str(error)


def run_client(session: Session, host: str, port: int, connect=None) -> int:
    """Run the UI and the networking until the user quits; `connect(host, port)` opens a connection (default:
    plain TCP)."""
    import asyncio

    from .ui import ClientUI

    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # (a script's pipe ended in prompt_toolkit's EOFError)
        print("dt-client:", _("the client reads keys from a terminal and draws on one: run it in a terminal"),
              file=sys.stderr)
        return 2
    session.state.server = f"{host}:{port}"
    asyncio.run(_run(ClientUI(session), session, host, port, connect))
    return 0


async def _run(ui: ClientUI, session: Session, host: str, port: int, connect=None) -> None:
    """The UI on asyncio, the networking as trio's guest; a crash of the networking ends the UI and is raised."""
    import asyncio

    from .guest import TrioGuest
    from .network import run_network

    guest = TrioGuest()
    if connect is None:
        guest.start(run_network, session, host, port)
    else:
        guest.start(run_network, session, host, port, connect)

    def network_done(done: asyncio.Future) -> None:
        if getattr(done.result(), "error", None) is not None:
            ui.exit()

    guest.done.add_done_callback(network_done)
    loop = asyncio.get_running_loop()
    for signum in QUIT_SIGNALS:  # leave the full screen the normal way: the terminal is restored
        loop.add_signal_handler(signum, ui.exit)
    try:
        await ui.app.run_async()
    finally:
        for signum in QUIT_SIGNALS:
            loop.remove_signal_handler(signum)
        session.quit()
        guest.cancel()
        await guest.wait()
