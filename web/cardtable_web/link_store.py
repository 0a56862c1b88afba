"""What this browser keeps of its games at your own pace, and where they stand for the lobby.

* :data:`LINK_GAMES_KEY`: the games it hosts by links (each seat played by links, with its key); the game itself is
  kept as every game is (:mod:`cardtable_web.keeping`).
* :data:`LINK_SEATS_KEY`: the games it plays as a guest by links (its seat and key, the latest turn link's payload,
  the reply made to it, the log as far as it was told, whose turn it waits for, since when).
* :data:`LINKS_LOBBY_KEY`: the lobby's rows of both, waiting for me or for someone else, written as plain text
  whenever such a game changes here, so the lobby lists them before Python is ready (``web/boot.js`` only displays
  them and hands their buttons back to Python).

Storage is read like hostile input: an entry of another shape is left out.
"""

from __future__ import annotations

from typing import Any

from pyengine.words import listed

from .keeping import Keeper, game_key, summary, turn_words
from .session import Session

LINK_GAMES_KEY = "cardtable.link-games"
"""``{table name: {"seats": [seats played by links], "keys": {seat: key}, "names": [their names], "joined": [seats
whose reply came]}}`` of the games this browser hosts at their own pace, unfinished and lately finished (a late link
then hears that the game is over)."""
LINK_SEATS_KEY = "cardtable.link-seats"
"""``{table name: held game}`` of the games this browser plays by links as a guest (see :func:`held_games`)."""
LINKS_LOBBY_KEY = "cardtable.lobby-links"
"""``[{"text", "since", "waiting", "open", "key"}]``: ``waiting`` is ``you``, ``others`` or ``over``; ``since``
milliseconds since 1970; ``open`` how the lobby opens it again: ``kept`` (the host's kept game, by its game ``key``)
or ``held`` (a guest's latest turn, by its table's name in ``key``)."""
REMEMBERED = 30
MAX_ROWS = 30
MAX_LOG = 400
"""The most lines of a held game's log kept."""


# -- the games hosted here -----------------------------------------------------------------------------------------
def hosted_games(keeper: Keeper) -> dict[str, dict[str, Any]]:
    """The games this browser hosts by links, by table name."""
    games = keeper.read(LINK_GAMES_KEY, dict, {})
    return {table: entry for table, entry in games.items() if valid_hosted(entry)}


def valid_hosted(entry: Any) -> bool:
    """Whether ``entry`` is a hosted game's seats played by links and their keys."""
    if not isinstance(entry, dict) or not isinstance(seats := entry.get("seats"), list):
        return False
    keys = entry.get("keys")
    return (all(isinstance(s, int) and not isinstance(s, bool) for s in seats) and isinstance(keys, dict)
            and all(isinstance(keys.get(str(s)), str) for s in seats))


def host(keeper: Keeper, table: str, keys: dict[int, str], names: list[str] | None = None,
         joined: set[int] | None = None) -> None:
    """Remember a hosted game's seats played by links and their keys (the newest last), with the names of the
    players of those seats (the lobby says whom the game is with) and the seats that ``joined`` (whose reply came:
    their device holds their key)."""
    games = hosted_games(keeper)
    entry: dict[str, Any] = {"seats": sorted(keys), "keys": {str(s): k for s, k in sorted(keys.items())}}
    if names:
        entry["names"] = [str(names[seat]) for seat in sorted(keys) if seat < len(names)]
    if joined:
        entry["joined"] = sorted(joined)
    if games.get(table) != entry:
        games.pop(table, None)
        games[table] = entry
        keeper.write(LINK_GAMES_KEY, dict(list(games.items())[-REMEMBERED:]))


# -- the games played here as a guest ---------------------------------------------------------------------------------
def held_games(keeper: Keeper) -> dict[str, dict[str, Any]]:
    """The games this browser plays as a guest by links, by table name: ``{"seat", "key", "game", "title",
    "names", "host", "turn", "packed", "reply", "log", "updated", "over", "waiting"}``."""
    games = keeper.read(LINK_SEATS_KEY, dict, {})
    return {table: entry for table, entry in games.items() if _held(entry)}


def _held(entry: object) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("seat"), int) and isinstance(entry.get("key"), str)
            and isinstance(entry.get("turn"), int) and isinstance(entry.get("packed"), str)
            and isinstance(entry.get("log"), list) and isinstance(entry.get("reply"), list | type(None)))


def hold(keeper: Keeper, table: str, entry: dict[str, Any]) -> None:
    """Keep a held game (the newest last; the oldest go past :data:`REMEMBERED`), and the lobby's rows."""
    games = held_games(keeper)
    games.pop(table, None)
    games[table] = entry
    keeper.write(LINK_SEATS_KEY, dict(list(games.items())[-REMEMBERED:]))
    write_lobby(keeper)


def joined(entry: dict[str, Any]) -> set[int]:
    """The seats of a hosted game whose reply came (their device holds their key)."""
    seats = entry.get("joined")
    return {s for s in seats if isinstance(s, int)} if isinstance(seats, list) else set()


def key_of(keeper: Keeper, table: str, seat: int) -> str:
    """This browser's key for a seat it plays by links ("" when it plays no such seat)."""
    held = held_games(keeper).get(str(table))
    return str(held["key"]) if held is not None and held["seat"] == seat else ""


# -- the lobby's rows ----------------------------------------------------------------------------------------------
def hosted_rows(keeper: Keeper, session: Session | None = None, now: int = 0,
                live: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The unfinished games this browser hosts by links, from their kept summaries (the game on the table,
    ``session``, from itself: its summary may not be kept yet; ``live`` names its players connected now)."""
    hosted = hosted_games(keeper)
    rows = []
    for key, kept in keeper.saves().items():
        table = kept.get("table")
        if table in hosted and (session is None or table != session.table):
            title = _with(str(kept["title"]), hosted[table])
            rows.append(_hosted_row(key, title, str(kept["progress"]), str(kept.get("turn", "")),
                                    int(kept["updated"]), _names(hosted[table])))
    if session is not None and not session.state.is_terminal() and session.table in hosted:
        facts = summary(session)
        title = _with(facts["title"], hosted[session.table])
        rows.append(_hosted_row(game_key(session), title, facts["progress"], turn_words(session), now,
                                _names(hosted[session.table]), live))
    return rows


def _names(entry: dict[str, Any]) -> list[str]:
    """The names of the players of a hosted game's seats by links."""
    names = entry.get("names")
    return [str(name) for name in names] if isinstance(names, list) else []


def _with(title: str, entry: dict[str, Any]) -> str:
    names = _names(entry)
    return f"{title} with {listed(names)}" if names else title


def _hosted_row(key: str, title: str, progress: str, turn: str, since: int, by_links: list[str],
                live: tuple[str, ...] = ()) -> dict[str, Any]:
    """A hosted game's row, saying what is true now: played live with someone, or whose turn (a player by links:
    their link) it waits for."""
    waiting = "you" if turn == "your turn" else "others"
    who = turn.removesuffix("'s turn") if waiting == "others" else "you"
    if live:
        now = f"playing live with {listed(list(live))}"
    elif who in by_links:
        now = f"waiting for {who}'s link"
    else:
        now = f"waiting for {who or 'the computer'}"
    return {"text": f"{title}, {progress}: {now} (you host it)", "since": since, "waiting": waiting, "open": "kept",
            "key": key}


def host_name(held: dict[str, Any]) -> str:
    """The name of the player whose device hosts a held game."""
    names, seat = held.get("names") or [], held.get("host")
    return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else "the host"


def held_rows(keeper: Keeper) -> list[dict[str, Any]]:
    """The games this browser plays as a guest by links: its turn, its link to send, or someone else's turn."""
    rows = []
    for table, held in held_games(keeper).items():
        host = host_name(held)
        title = str(held.get("title", "A game"))
        if held.get("over"):
            text, state = f"{title} with {host}: the game is over", "over"
        elif held.get("live"):
            text, state = f"{title}: playing live with {host}", "others"
        elif held.get("waiting") == "you":
            text, state = f"{title} with {host}: your turn", "you"
        elif held.get("reply") is not None:
            text, state = f"{title} with {host}: your link for {host} is ready to send", "you"
        else:
            text, state = f"{title} with {host}: waiting for {host}'s link", "others"
        since = held.get("updated")
        rows.append({"text": text, "since": since if isinstance(since, int) else 0, "waiting": state,
                     "open": "held", "key": table})
    return rows


def write_lobby(keeper: Keeper, session: Session | None = None, now: int = 0,
                live: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The lobby's rows of the games at your own pace (waiting for you first, then the newest), kept for the
    lobby; ``live`` names the players of ``session`` connected live now."""
    rows = hosted_rows(keeper, session, now, live) + held_rows(keeper)
    rows.sort(key=lambda row: (row["waiting"] != "you", row["waiting"] == "over", -row["since"]))
    keeper.write(LINKS_LOBBY_KEY, rows[:MAX_ROWS])
    return rows[:MAX_ROWS]
