"""One game or position in a frame of another page: ``embed.html``.

The address
-----------
``embed.html?game=ID`` and one of

* ``position=NAME`` (one of the game's named positions, e.g. ``figure-1``) or ``position={...}`` (JSON: a
  position description in the game's documented format, see its rules page), with ``players`` and the
  game's options (``name=value``) when the description needs them;
* ``record={...}`` (JSON: a whole game's record), shown in the replay controls;
* nothing more: a new game, set up like the main page's address (``players``, ``seed``, options).

and optionally ``seat`` (whose view: a seat number, or ``none`` for the public view; default: the seat
that decides when ``interactive``, else the public view), ``interactive`` (``1``: play that seat against
the computer; default ``0``, view only), ``controls`` (``0``: the board alone; default ``1``: the
headline, the scores and the replay bar), ``level`` (the computer's level), ``delay`` (its pause in ms)
and ``origin`` (the host page's origin: when given, commands are accepted from it only and events are
sent to it only).

The postMessage API
-------------------
Every message is a plain object with a ``type``. Events (frame to host; sent to ``window.parent``):

* ``{"type": "ready", "game", "mode": "position"|"record"|"game", "players", "seat", "current_player",
  "interactive", "over", "moves": [action texts the shown seat may play now]}``: the frame is drawn
  and accepts commands (``loaded`` has the same shape, after a ``load`` command);
* ``{"type": "move", "seat", "text", "facts": {...}, "action"?, "by": "player"|"computer"|"host",
  "current_player", "over"}``: an action was played (``text``: the log's line in words). The frame's own seat's
  moves (and the host's) carry the action's text and its facts as the view offered them; anyone else's move
  carries only the public facts of its log line (:func:`pyengine.telling.told`);
* ``{"type": "over", "scores": [...], "winners": [...]}``: the game ended;
* ``{"type": "resize", "height": pixels}``: the content's height changed (size the frame to it);
* ``{"type": "error", "message": text, "command": type or null}``: a command was refused (or the address
  could not be shown); the frame stays as it was.

Commands (host to frame; only from ``window.parent``, and from ``origin`` when that is given):

* ``{"type": "load", "position": NAME or {...}, "players"?, "options"?, "seat"?}`` or
  ``{"type": "load", "record": {...}, "seat"?}``: show another position or game;
* ``{"type": "play", "action": text}``: play an action for the seat that decides now (refused while the
  computer is to play, and when a record is shown).

A command may carry an ``"id"`` (a short text or a number); the event answering it (``loaded``,
``move``, ``error``) carries the same ``id``. A command that is not a plain object of known fields with
the right types, or longer than :data:`MAX_COMMAND` characters as JSON, gets an ``error`` event.
Events carry nothing but what the frame shows or the host gave, so they are sent with target origin
``*`` unless ``origin`` is given.

Everything here is pure (no DOM), so it runs and is tested under CPython: the frame's adapter is
:mod:`cardtable_web.embed_page`, and a rules page's "Copy embed code" buttons are :mod:`cardtable_web.figures`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import pyengine
from pyengine.ai import DEFAULT_LEVEL
from pyengine.core import read_json
from pyengine.notation import quote
from pyengine.rng import fresh_seed as new_seed
from pyengine.telling import told
from pyengine.words import say

from . import drawing
from .feed import SeatFeed, feed_for
from .html import esc
from .replay import Replay
from .session import Session
from .setup import Seat, Setup, query_fields, read_fields
from .urls import quote as url_quote

MAX_COMMAND = 200_000
"""A command longer than this (as JSON) is refused unread."""
EMBED_DELAY_MS = 400
KNOWN_PARAMS = frozenset(
    {"game", "position", "record", "players", "seed", "seat", "interactive", "controls", "level", "delay", "origin"}
)


@dataclass
class Request:
    """What an embed shows: a state (a position, a new game or a record's end) and how."""

    game: str
    state: pyengine.State
    mode: str
    seat: int | None = None
    interactive: bool = False
    controls: bool = True
    level: str = DEFAULT_LEVEL
    delay: int = EMBED_DELAY_MS
    origin: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


def _flag(params: Mapping[str, str], name: str, default: bool) -> bool:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    if raw in ("1", "true", "yes"):
        return True
    if raw in ("0", "false", "no"):
        return False
    raise ValueError(f"{name} is 1 or 0; got {quote(raw)}")


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_game(game: object) -> str:
    if not isinstance(game, str) or game not in pyengine.GAMES:
        raise ValueError(f"there is no game called {quote(game)}; the games are: {', '.join(pyengine.GAMES)}")
    return game


def load_state(
    game: str,
    position: object = None,
    record: object = None,
    players: object = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> tuple[pyengine.State, str]:
    """The state to show and its mode; ``ValueError`` with one short message."""
    check_game(game)
    if position is not None and record is not None:
        raise ValueError("give a position or a record, not both")
    if record is not None:
        if not isinstance(record, Mapping):
            raise ValueError("a record is an object (JSON)")
        if record.get("game") != game:
            raise ValueError(f"the record is a game of {quote(record.get('game'))}, not of {game}")
        return pyengine.replay(record), "record"
    info = pyengine.GAMES[game]
    if players is None:
        players = info.default_players
    if isinstance(position, str):  # a named position brings its own players and options
        if options:
            raise ValueError(f"the named position {quote(position[:40])} brings its own options: give none")
        return pyengine.core.named_position(game, position), "position"
    if position is not None:
        if not isinstance(position, Mapping):
            raise ValueError("a position is a name or an object (JSON) in the game's position format")
        return pyengine.new_game(game, players, seed, dict(options or {}), dict(position)), "position"  # type: ignore[arg-type]
    return pyengine.new_game(game, players, seed, dict(options or {})), "game"  # type: ignore[arg-type]


def _json_or_name(raw: str, what: str) -> Any:
    text = raw.strip()
    if text.startswith("{"):
        return read_json(text, what)
    return text


def from_query(search: str, fresh_seed: int | None = None) -> Request:
    """What an embed's address (its query, ``search``) asks for: each parameter once (see :func:`from_params`)."""
    return from_params(query_fields(search), fresh_seed)


def from_params(params: Mapping[str, str], fresh_seed: int | None = None) -> Request:
    """What an embed's address asks for; ``ValueError`` saying what is wrong, in one sentence. Its setup
    (``players``, ``seed``, ``level``, ``delay``, options) is read by the one reader of a setup
    (:func:`cardtable_web.setup.read_fields`); a new game without a ``seed`` is dealt with ``fresh_seed``
    (None: one drawn here), so embeds do not all deal the same cards."""
    game = check_game(params.get("game"))
    info = pyengine.GAMES[game]
    option_names = {o.name for o in info.options}
    unknown = sorted(set(params) - KNOWN_PARAMS - option_names)
    if unknown:
        raise ValueError(f"{quote(unknown[0][:30])} is not a setting of an embed of {info.title}")
    seed = new_seed() if fresh_seed is None else fresh_seed
    settings, problems = read_fields(params, seed, KNOWN_PARAMS)
    if problems:
        raise ValueError("; ".join(problems))
    players = settings["players"] if params.get("players") else None
    position = _json_or_name(params["position"], "position") if params.get("position") else None
    record = read_json(params["record"], "record") if params.get("record") else None
    options = settings["options"]
    state, mode = load_state(game, position, record, players, options, int(settings["seed"]))
    interactive = _flag(params, "interactive", False)
    controls = _flag(params, "controls", True)
    delay = settings["delay"] if "delay" in params else EMBED_DELAY_MS
    seat = read_seat(params.get("seat"), state, interactive and mode != "record")
    origin = params.get("origin") or None
    if origin is not None and not (origin.startswith(("http://", "https://")) and origin.count("/") == 2):
        raise ValueError("origin is a page's origin, like https://example.org")
    return Request(game, state, mode, seat, interactive and mode != "record", controls, settings["level"], delay,
                   origin, options)


def read_seat(raw: object, state: pyengine.State, interactive: bool) -> int | None:
    """The seat whose view is shown (see the module's docstring for the default)."""
    if raw is None or raw == "":
        if interactive:
            current = state.current_player
            return current if current is not None else 0
        return None
    if raw == "none" or raw is None:
        if interactive:
            raise ValueError("an interactive embed shows a seat's view: give seat as a number")
        return None
    seat = int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) <= 3 else raw
    if not _whole(seat) or not 0 <= seat < state.players:
        raise ValueError(f"seat is a number from 0 to {state.players - 1}, or none for the public view")
    return int(seat)


# -- commands from the host --------------------------------------------------------------------------------------

COMMAND_FIELDS = {
    "load": {"type", "id", "position", "record", "players", "options", "seat"},
    "play": {"type", "id", "action"},
}


class CommandError(ValueError):
    """A refused command, with the ``id`` it carried (when it could be read) for the error event."""

    def __init__(self, message: str, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reply = reply_id(data)


def parse_command(text: object) -> dict[str, Any]:
    """A host's command (the message as JSON text), checked; :class:`CommandError` saying what is wrong."""
    if not isinstance(text, str):
        raise CommandError("a command is a plain object")
    if len(text) > MAX_COMMAND:
        raise CommandError(f"the command is too long (at most {MAX_COMMAND:,} characters as JSON)")
    try:
        data = read_json(text, "command")
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if isinstance(data, str):
        raise CommandError("a command is a plain object, not its JSON text: post the object itself")
    if not isinstance(data, dict):
        raise CommandError("a command is a plain object with a type")
    ident = data.get("id")
    if ident is not None and not (_whole(ident) or isinstance(ident, str) and len(ident) <= 64):
        raise CommandError("a command's id is a short text (at most 64 characters) or a whole number")
    problem = _command_problem(data)
    if problem:
        raise CommandError(problem, data)
    return data


def _command_problem(data: Mapping[str, Any]) -> str | None:
    """What is wrong with a command's fields, in words (None: nothing)."""
    kind = data.get("type")
    if not isinstance(kind, str):
        return f"a command's type is a text ({' or '.join(COMMAND_FIELDS)}), not {_kind_of(kind)}"
    if kind not in COMMAND_FIELDS:
        return f"unknown command type {quote(kind)}; the commands are: {', '.join(COMMAND_FIELDS)}"
    extra = sorted(set(data) - COMMAND_FIELDS[kind])
    if extra:
        return f"{quote(extra[0][:30])} is not a field of a {kind} command"
    if kind == "play":
        if not isinstance(data.get("action"), str) or not data["action"].strip():
            return f"a play command names its action as text, not {_kind_of(data.get('action'))}"
        return None
    if ("position" in data) == ("record" in data):
        return "a load command has a position or a record"
    if "options" in data and not isinstance(data["options"], dict):
        return f"options is an object, not {_kind_of(data['options'])}"
    if "players" in data and not _whole(data["players"]):
        return f"players is a whole number, not {_kind_of(data['players'])}"
    return None


def _kind_of(value: object) -> str:
    """A JSON value's kind in words ("a list", "a number", "nothing")."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    return "a list" if isinstance(value, list) else "an object"


def reply_id(data: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"id": data["id"]} if data and "id" in data else {}


# -- the frame's model -------------------------------------------------------------------------------------------


class Embed:
    """The frame's game: a :class:`Session` (a position or a game) or a :class:`Replay` (a record)."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.game = request.game
        self.session: Session | None = None
        self.replay: Replay | None = None
        state = request.state
        if request.mode == "record":
            self.replay = Replay(state, [f"Player {i + 1}" for i in range(state.players)], request.seat)
            return
        seats = [Seat(computer=request.interactive and i != request.seat, level=request.level)
                 for i in range(state.players)]
        setup = Setup(self.game, state.players, int(state.seed or 0), seats, dict(state.options), request.delay)
        self.session = Session(setup, state)
        self.session.viewer = request.seat
        if not request.interactive:
            self.session.names = [f"Player {i + 1}" for i in range(state.players)]

    @property
    def state(self) -> pyengine.State:
        if self.replay is not None:
            return self.replay.states[self.replay.index]
        assert self.session is not None
        return self.session.state

    def feed(self) -> SeatFeed:
        """The shown seat's feed (:func:`cardtable_web.feed.feed_for`, the one door): its moves only when that seat
        is a player here who decides now; a view only names the shown seat "you" in words, never "You"."""
        session = self.session
        assert session is not None and session.viewer == self.request.seat
        interactive = self.request.interactive
        you = session.you if interactive else self.request.seat
        return feed_for(session.state, session.names, session.computers, self.request.seat, you, session.trail,
                        offer=interactive and session.decides_now())

    def view(self) -> dict[str, Any]:
        """The shown seat's view, each seat's latest turn marked."""
        return self.replay.view() if self.replay is not None else self.feed().view

    def html(self) -> str:
        """The frame's content: the headline and scores (with ``controls``), the board."""
        if self.replay is not None:
            replay = self.replay
            top = ""
            if self.request.controls:
                state = self.state
                top = replay.controls_html() + drawing.scores_html(self.game, state.scores(), state.current_player,
                                                                   replay.names)
            return top + drawing.render_view(self.game, replay.view())
        session = self.session
        assert session is not None
        feed = self.feed()
        top = drawing.status_html(feed, self.game) if self.request.controls else ""
        return top + drawing.render_view(self.game, feed.view, session.selection)

    def describe(self, kind: str, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ``ready`` / ``loaded`` event."""
        state = self.state
        return {
            "type": kind,
            "game": self.game,
            "mode": self.request.mode,
            "players": state.players,
            "seat": self.request.seat,
            "current_player": state.current_player,
            "interactive": self.request.interactive,
            "over": state.is_terminal(),
            "moves": list(self.view()["moves"]),
            **reply_id(data),
        }

    def computer_to_move(self) -> bool:
        return self.session is not None and self.request.interactive and self.session.computer_to_move()

    def play(self, text: str, by: str) -> list[dict[str, Any]]:
        """Play ``text`` for the seat deciding now; the events it makes (``ValueError`` when refused)."""
        session = self.session
        if session is None:
            raise ValueError("a record is shown: load a position to play")
        before = session.state
        seat = before.current_player
        if seat is None:
            raise ValueError("the game is over")
        if by != "computer" and session.setup.seats[seat].computer:
            raise ValueError("the computer is to play now")
        action = before.parse_action(text)  # IllegalAction (a ValueError) saying why not
        if by == "computer":
            session.computer_move(action)
        else:
            session.state = before.apply(action)
            session.selection = None
            session.message = ""
        session.viewer = self.request.seat
        after = session.state
        events = [{"type": "move", **self.told(after, seat if by == "host" else self.request.seat), "by": by,
                   "current_player": after.current_player, "over": after.is_terminal()}]
        if after.is_terminal():
            events.append({"type": "over", "scores": after.scores(), "winners": after.winners()})
        return events


    def told(self, after: pyengine.State, receiver: int | None) -> dict[str, Any]:
        """What the host is told of a move (:func:`pyengine.telling.told` for ``receiver``: the frame's seat, or
        the mover when the host itself played): who moved, the log line in words, the facts the receiver may
        know, and the action's text when it was the receiver's own move."""
        message = told(after, receiver)
        event = {"seat": message["seat"], "text": say(message["text"], self.names(), receiver),
                 "facts": message.get("own_facts", message["facts"])}
        if "action" in message:
            event["action"] = message["action"]
        return event

    def names(self) -> list[str]:
        if self.session is not None:
            return self.session.names
        return [f"Player {i + 1}" for i in range(self.state.players)]


def embed_code(site: str, game: str, position: str, title: str = "", height: int = 420) -> str:
    """The ``<iframe>`` snippet that embeds a named position of ``game`` from the site at ``site`` (its address,
    ending in ``/``)."""
    address = f"{site}embed.html?game={url_quote(game)}&position={url_quote(position)}"
    label = title or f"{pyengine.GAMES[game].title}: {position}"
    return (f'<iframe src="{esc(address)}" title="{esc(label)}" width="100%" height="{height}" '
            'style="border: 0" sandbox="allow-scripts allow-same-origin" loading="lazy"></iframe>')


def position_format_html(game: str, site: str) -> str:
    """A rules page's section on embedding positions, from the engine itself: the format (``load_position``'s
    documentation) and each named position as an example description (for pages that do not document it)."""
    rules = pyengine.core.rules_for(game)
    info = rules.info
    parts = ['<section class="position-format-generated"><h3 id="position-format">Position format</h3>']
    if not info.loads_positions:
        parts.append(
            f"<p>{esc(info.title)} cannot be set up from a description yet. Embed a new game "
            f"(<code>{esc(site)}embed.html?game={esc(game)}&amp;players=2&amp;seed=7</code>) or a whole game's "
            "record (<code>record={...}</code>, as the game's history keeps it).</p></section>"
        )
        return "".join(parts)
    doc = " ".join((type(rules).load_position.__doc__ or "").split()).replace("``", "").removeprefix("A core from ")
    parts.append(f"<p>A position is a JSON object: {esc(doc)}</p>")
    for name, named in rules.positions.items():
        described = json.dumps(dict(named.position), ensure_ascii=False)
        address = f"{site}embed.html?game={url_quote(game)}&players={named.players}&position={url_quote(described)}"
        options = "".join(f"&{url_quote(k)}={url_quote(str(v).lower())}" for k, v in named.options.items())
        parts.append(
            f"<p>Example ({esc(named.title)}, {named.players} players, shown above as <code>{esc(name)}</code>):</p>"
            f'<pre class="position-example">{esc(described)}</pre>'
            f"<p>Embedded by its description: <code>{esc(address + options)}</code></p>"
        )
    parts.append("</section>")
    return "".join(parts)
