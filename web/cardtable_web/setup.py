"""A game's setup: which game, how many players, the seed, who sits where (a human or a computer at a
level), the options and the computer's pace. One reader for every way a setup arrives:

* the lobby's settings, an object (:func:`read_setup`; :meth:`Setup.from_json` for its JSON text):
  ``{"game", "players", "seed", "bots": [seat numbers], "level", "levels": {"seat": level}, "options", "delay",
  "names": [seat names]}``;
* an address's query, ``index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0&thief=lowest-placeable``
  (:func:`lobby_from_query`: the setup to start, or what the lobby shows of it and what is wrong);
* the setup part of a game's address fragment (:mod:`cardtable_web.address`, through :func:`read_fields`).

And one writer of the seats: an address's ``bots`` and ``level`` (:func:`seat_fields`) and a kept game's seats
(:func:`stored_seats`, read back by :func:`seats_from_stored`).

The address's rules
-------------------
* ``bots`` names the computer seats wherever an address is written: seat numbers from 0, separated by commas, each
  with its own level after a colon when it differs from ``level`` (``bots=1,2:hard&level=easy``). ``level`` is the
  computers' level (default ``normal``). Fragments written before this rule named every seat in ``seats`` (``h`` a
  human, ``c`` and a level's first letter a computer: ``seats=h.ce``) and held the options as JSON
  (``options={...}``); they are still read.
* ``players`` (default 2, or the game's nearest count), ``seed`` (default: a fresh one, 128 secret bits that nobody
  sees; a seed given is a chosen deal, which does not count in the statistics), ``delay`` (the computer's
  pause in milliseconds, 0-10000) and any game option by its name (``thief=lowest-placeable``).
* Seats' names are never written into an address (a name is the player's own; an address is shared).
* A parameter given twice is refused, numbers are ASCII digits only, and a bad value is quoted back at most
  40 characters long. A query longer than :data:`MAX_QUERY` characters is refused unread.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import pyengine
from pyengine.ai import DEFAULT_LEVEL, LEVELS
from pyengine.core import read_json
from pyengine.notation import quote
from pyengine.rng import fresh_seed

from .urls import parse_qsl

DEFAULT_DELAY_MS = 600
MAX_DELAY_MS = 10_000
MAX_SEED_DIGITS = 40
"""A seed is a whole number of at most this many decimal digits (a new game's 128-bit seed takes up to 39)."""
MAX_QUERY = 4_000
"""A setup's query (the part after ``?``) longer than this is refused: settings take a few hundred characters."""
SETUP_PARAMS = ("game", "players", "seed", "bots", "level", "delay")
"""The query's own parameters (besides the game's options)."""
OLD_PARAMS = ("seats", "options")
"""Parameters only fragments written before the ``bots`` rule hold."""
_LEVEL_BY_LETTER = {name[0]: name for name in LEVELS}
MAX_NAME = 20
"""The longest name a player may give a seat, in characters."""
_NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069{}]")
"""Control and direction characters, and the braces of the log's seat placeholders: dropped from names."""


def clean_name(value: object) -> str:
    """A seat's name as a player typed it, made safe to keep and show: one line of at most :data:`MAX_NAME`
    characters, without control characters or braces ("" for anything that is not text). It is still the
    player's text: whatever shows it escapes it."""
    if not isinstance(value, str):
        return ""
    return " ".join(_NOT_IN_NAMES.sub("", value[: MAX_NAME * 4]).split())[:MAX_NAME].strip()


def read_names(value: object, players: int) -> list[str]:
    """The seats' names of a setup or a kept game: a list of at most ``players`` texts, each cleaned
    (:func:`clean_name`; "" keeps the seat's own name); ``ValueError`` when it is not such a list."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > players:
        raise ValueError(f"the players' names must be a list of at most {players} names")
    return [clean_name(name) for name in value]


@dataclass(frozen=True)
class Seat:
    """One seat: a human, or a computer at a level."""

    computer: bool
    level: str = "normal"

    def name(self, index: int, humans: int) -> str:
        if self.computer:
            return f"Computer {index + 1} ({self.level})"
        return "You" if humans == 1 else f"Player {index + 1}"


def seat_fields(seats: Iterable[Seat]) -> list[tuple[str, str]]:
    """The seats as an address writes them: ``bots`` (the computer seats, each with its own level after a colon
    where it differs from the first computer's) and ``level``; nothing when every seat is a human."""
    computers = [(i, s.level) for i, s in enumerate(seats) if s.computer]
    if not computers:
        return []
    level = computers[0][1]
    return [("bots", ",".join(f"{i}:{own}" if own != level else str(i) for i, own in computers)), ("level", level)]


def stored_seats(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """The seats as a kept game stores them: ``[{"computer": bool, "level": name}, ...]``."""
    return [{"computer": s.computer, "level": s.level} for s in seats]


def seats_from_stored(raw: object, players: int) -> list[Seat]:
    """The seats a kept game stored (:func:`stored_seats`); ``ValueError`` in words."""
    if not isinstance(raw, list) or len(raw) != players or not all(isinstance(s, dict) for s in raw):
        raise ValueError("its seats do not match its game")
    seats = [Seat(s.get("computer") is True, s.get("level", "normal")) for s in raw]
    if any(not isinstance(s.level, str) or s.level not in LEVELS for s in seats):
        raise ValueError("its seats name no computer level of this site")
    return seats


@dataclass
class Setup:
    """What the lobby (or the address) asks for."""

    game: str
    players: int
    seed: int
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)

    delay: int = DEFAULT_DELAY_MS
    """The pause before each computer move, in milliseconds."""

    chosen: bool = False
    """Whether the seed was given (typed in the lobby, or in an address) rather than drawn fresh: a chosen deal,
    whose hidden cards someone may know, so the game does not count in the statistics."""

    names: list[str] = field(default_factory=list)
    """The names the players gave the seats, seat by seat ("" or missing: the seat's own name)."""

    def seat_names(self) -> list[str]:
        """Each seat's name at the table: the one a player gave it, else "You", "Player 2", "Computer 3 (easy)".
        A computer seat keeps its own name."""
        humans = sum(not seat.computer for seat in self.seats)
        given = [*self.names, *[""] * len(self.seats)]
        return [(given[i] if given[i] and not seat.computer else seat.name(i, humans))
                for i, seat in enumerate(self.seats)]

    @staticmethod
    def from_json(text: str) -> Setup:
        """A setup from the lobby's JSON; ``ValueError`` with one short message for the player."""
        return read_setup(read_json(text, "game settings"))


def read_setup(fields: object) -> Setup:
    """A setup from the lobby's settings (an object, see the module's docstring); ``ValueError`` with one short
    message for the player."""
    if not isinstance(fields, Mapping):
        raise ValueError("the game settings must be an object")
    game = check_game(fields.get("game"))
    info = pyengine.GAMES[game]
    players = pyengine.core.check_players(info, fields.get("players", info.min_players))
    chosen = fields.get("seed") not in (None, "")
    seed = parse_seed(fields["seed"]) if chosen else fresh_seed()
    bots = fields.get("bots", [])
    if not isinstance(bots, list) or not all(whole(b) and 0 <= b < players for b in bots):
        raise ValueError(f"computer seats must be seat numbers from 0 to {players - 1}")
    if len(set(bots)) != len(bots):
        raise ValueError("a computer seat is listed twice")
    level = fields.get("level", DEFAULT_LEVEL)
    levels = fields.get("levels") or {}
    if not isinstance(levels, Mapping):
        raise ValueError("levels must be an object")
    seats = []
    for i in range(players):
        seat_level = levels.get(str(i), level)
        if not isinstance(seat_level, str) or seat_level not in LEVELS:
            raise ValueError(f"the computer's level must be one of {', '.join(LEVELS)}; got {quote(seat_level)}")
        seats.append(Seat(True, seat_level) if i in bots else Seat(False))  # a human's level means nothing
    options = fields.get("options") or {}
    if not isinstance(options, Mapping):
        raise ValueError("options must be an object")
    pyengine.core.check_setup(pyengine.core.rules_for(game), players, options)
    delay = fields.get("delay", DEFAULT_DELAY_MS)
    if not whole(delay) or not 0 <= delay <= MAX_DELAY_MS:
        raise ValueError(f"the computer's pause (delay) must be 0 to {MAX_DELAY_MS} milliseconds")
    names = read_names(fields.get("names"), players)
    return Setup(game, players, seed, seats, dict(options), delay, chosen=chosen, names=names)


def check_game(game: object) -> str:
    """``game`` if it names a game of this site; else ``ValueError`` listing the games."""
    if not isinstance(game, str) or game not in pyengine.GAMES:
        raise ValueError(f"there is no game called {quote(game)}; the games are: {', '.join(pyengine.GAMES)}")
    return game


def whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def digits(text: str, most: int) -> bool:
    """Whether ``text`` is 1 to ``most`` ASCII digits (``"٢".isdigit()`` is true, so ``isdigit`` alone is not)."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


def parse_seed(value: object) -> int:
    """A seed: a whole number, given as a number or as decimal digits (at most :data:`MAX_SEED_DIGITS`,
    optionally signed). Pages pass seeds as text: a JSON number that long loses digits in JavaScript."""
    if whole(value) and abs(value) < 10**MAX_SEED_DIGITS:
        return int(value)
    if isinstance(value, str) and digits(value.strip().removeprefix("-"), MAX_SEED_DIGITS):
        return int(value.strip())
    shown = "a number too long" if whole(value) else quote(value)
    raise ValueError(f"the seed must be a whole number of at most {MAX_SEED_DIGITS} digits; got {shown}")


def option_from_text(game: str, name: str, raw: str) -> Any:
    """An option's value from its text in an address (the choice written so, in any case)."""
    option = pyengine.GAMES[game].option(name)
    for choice in option.choices:
        if option_text(choice) == raw.lower():
            return choice
    choices = ", ".join(option_text(c) for c in option.choices)
    raise ValueError(f"{option.label} is one of {choices}; got {quote(raw)}")


def option_text(value: object) -> str:
    """An option's value as an address writes it (``true``, ``lowest-placeable``, ``51``)."""
    return str(value).lower()


# -- addresses ----------------------------------------------------------------------------------------------------


def query_fields(query: str, what: str = "address") -> dict[str, str]:
    """The ``name=value`` pairs of a query or fragment (a leading ``?`` or ``#`` dropped), each name once;
    ``ValueError`` for a name given twice."""
    if not isinstance(query, str):
        raise ValueError(f"this {what} is not text")
    fields: dict[str, str] = {}
    for name, value in parse_qsl(query.lstrip("?#")):
        if name in fields:
            raise ValueError(f"this {what} gives {quote(name)} twice")
        fields[name] = value
    return fields


def read_fields(
    fields: Mapping[str, str], fresh_seed: int | None, extra: Iterable[str] = ()
) -> tuple[dict[str, Any], list[str]]:
    """The lobby's settings an address's fields hold, and what is wrong with them (in words, none when the
    settings start a game). ``fresh_seed`` is the seed of an address without one (None: a seed is required);
    ``extra`` the further parameters the caller reads itself. Settings that cannot be read are left at the
    lobby's defaults, so the lobby can show the rest."""
    if "game" not in fields:
        return {}, ["it names no game"]
    try:
        game = check_game(fields["game"])
    except ValueError as exc:
        return {}, [str(exc)]
    info = pyengine.GAMES[game]
    known = {*SETUP_PARAMS, *OLD_PARAMS, *extra, *(o.name for o in info.options)}
    problems = [f"{quote(name)} is not a setting of {info.title}" for name in fields if name not in known]
    settings: dict[str, Any] = {"game": game}
    players = info.default_players
    if "players" in fields:
        raw = fields["players"]
        if digits(raw, 3) and info.min_players <= int(raw) <= info.max_players:
            players = int(raw)
        else:
            problems.append(f"{info.title} takes {info.min_players} to {info.max_players} players; got {quote(raw)}")
    settings["players"] = players
    level = fields.get("level", DEFAULT_LEVEL)
    if level not in LEVELS:
        problems.append(f"the computer's level is one of {', '.join(LEVELS)}; got {quote(level)}")
        level = DEFAULT_LEVEL
    settings["level"] = level
    levels = {str(i): level for i in range(players)}
    if "seats" in fields and "bots" not in fields:
        bots = _old_seats(fields["seats"], players, levels, problems)
    else:
        bots = _bots(fields.get("bots", ""), players, levels, problems)
    settings["bots"], settings["levels"] = bots, levels
    settings["options"] = _options(game, fields, problems)
    if "seed" in fields:
        try:
            settings["seed"] = str(parse_seed(fields["seed"]))
        except ValueError:
            problems.append(f"the seed is a whole number of at most {MAX_SEED_DIGITS} digits; "
                            f"got {quote(fields['seed'])}")
    if "seed" not in settings:
        if fresh_seed is None and "seed" not in fields:
            problems.append("it holds no seed")
        settings["seed"] = str(fresh_seed if fresh_seed is not None else 0)
    settings["delay"] = DEFAULT_DELAY_MS
    if "delay" in fields:
        raw = fields["delay"]
        if digits(raw, 5) and int(raw) <= MAX_DELAY_MS:
            settings["delay"] = int(raw)
        else:
            problems.append(f"the computer's pause (delay) is 0 to {MAX_DELAY_MS} milliseconds; got {quote(raw)}")
    if not problems:
        try:
            read_setup(settings)
        except ValueError as exc:  # a combination the game does not allow (players with these options)
            problems.append(str(exc))
    return settings, list(dict.fromkeys(problems))


def _bots(raw: str, players: int, levels: dict[str, str], problems: list[str]) -> list[int]:
    """The computer seats of ``bots=1,2:hard`` (each seat's own level written into ``levels``)."""
    bots: list[int] = []
    for piece in (p for p in raw.split(",") if p):
        seat, _, own = piece.partition(":")
        if not (digits(seat, 3) and int(seat) < players):
            problems.append(f"computer seats are numbers from 0 to {players - 1}; got {quote(seat)}")
        elif int(seat) in bots:
            problems.append(f"computer seat {seat} is listed twice")
        elif own and own not in LEVELS:
            problems.append(f"the computer's level is one of {', '.join(LEVELS)}; got {quote(own)}")
        else:
            bots.append(int(seat))
            if own:
                levels[seat] = own
    return bots


def _old_seats(raw: str, players: int, levels: dict[str, str], problems: list[str]) -> list[int]:
    """The computer seats of a fragment written before the ``bots`` rule: ``seats=h.ce`` (every seat)."""
    codes = raw.split(".")
    if len(codes) != players:
        problems.append("the address's seats do not match its number of players")
        return []
    bots = []
    for i, code in enumerate(codes):
        if len(code) == 2 and code[0] == "c" and code[1] in _LEVEL_BY_LETTER:
            bots.append(i)
            levels[str(i)] = _LEVEL_BY_LETTER[code[1]]
        elif code != "h":
            problems.append(f"the address's seat {quote(code)} is neither a human nor a computer level")
    return bots


def _options(game: str, fields: Mapping[str, str], problems: list[str]) -> dict[str, Any]:
    """The game's options an address names (``thief=lowest-placeable``; an old fragment's ``options={...}``)."""
    options: dict[str, Any] = {}
    if "options" in fields:
        try:
            old = read_json(fields["options"], "options")
            if not isinstance(old, dict):
                raise ValueError("the address's options are not an object")
            options.update(old)
        except ValueError as exc:
            problems.append(str(exc))
    for option in pyengine.GAMES[game].options:
        if option.name in fields:
            try:
                options[option.name] = option_from_text(game, option.name, fields[option.name])
            except ValueError as exc:
                problems.append(str(exc))
    return options


def lobby_from_query(query: str, fresh_seed: int) -> tuple[Setup | None, dict[str, Any], str | None]:
    """What the page does with its address's query: the setup to start (None: nothing to start), the settings
    the lobby shows (``{}``: its own defaults) and what is wrong, in words for the lobby (None: nothing).

    A query that names no game starts nothing and says nothing (the lobby's own address)."""
    if not isinstance(query, str) or len(query) > MAX_QUERY:
        return None, {}, f"This address is too long to hold a game's settings (at most {MAX_QUERY:,} characters)."
    try:
        fields = query_fields(query)
    except ValueError as exc:
        return None, {}, f"This address cannot start a game: {exc}."
    if "game" not in fields:
        return None, {}, None
    settings, problems = read_fields(fields, fresh_seed)
    shown = settings if "seed" in fields else {k: v for k, v in settings.items() if k != "seed"}  # never a fresh seed
    if problems:
        if not settings:
            return None, {}, f"This address cannot start a game: {problems[0]}. Pick one of the games below."
        text = "; ".join(problems)
        return None, shown, f"This address cannot start a game: {text}. The lobby below holds the rest of its " \
                            "settings."
    setup = read_setup(settings)
    setup.chosen = "seed" in fields
    return setup, shown, None
