"""The engine contract shared by every game.

A game package supplies a :class:`Rules` object (its ``<Game>Rules``) working on its own immutable
state value, the *core* (its ``<Game>State``, a frozen dataclass of tuples). :class:`State` wraps a core with
everything the contract needs: the record (game, rules version, players,
options, seed, actions), legality checks, views, replay and JSON.

Game modules never see the record machinery; the wrapper never sees the cards.

Views
-----
``State.view(seat)`` is everything ``seat`` may see (None: the public view), JSON-safe.
The same idea has the same key in every game:

==================  =================================================================
``game``            the game's id
``players``         the number of seats
``options``         the game's options
``seat``            whose view this is (None: the public view)
``current_player``  the seat that decides now (None when the game is over)
``over``            whether the game is over
``scores``          each seat's score now; ``winners`` the winning seats once over
``moves``           ``{action text: facts}`` for every legal action when ``seat`` decides
                    now, else ``{}``. Facts say what the action does in the game's words:
                    ``kind`` (the action kind of the notation) plus the cards, places and
                    pieces involved. Indexes (seats, vaults, marbles) are 0-based, like
                    the view's lists. The page reads these and never an action's text.
``hand``            the seat's own cards (card texts), None in the public view
``hands``           every seat's hand, where hands are open (else absent or None)
``hand_counts``     how many cards each seat holds
``draw_count``      cards in the shared face-down draw pile
``draw_counts``     cards in each seat's own face-down deck (games with a deck per seat)
``discard_count``   cards in the shared discard pile; ``discard_top`` its top card
``round``           the round (or hand) being played, from 1
``dealer``          the seat that dealt this round
==================  =================================================================

A game adds its own keys beside these, named in the game's words.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .notation import Notation, quote

# JSON reading lives in .reading; its names stay importable from here too.
from .reading import MAX_JSON_DEPTH as MAX_JSON_DEPTH
from .reading import MAX_RECORD_CHARS as MAX_RECORD_CHARS
from .reading import json_depth as json_depth
from .reading import read_json as read_json
from .rng import Rng, for_deal
from .words import Entry

Core = Any
"""A game's own immutable state value (hashable, comparable)."""

Action = Hashable
"""A game's own immutable action value; ``str(action)`` is its notation (see :mod:`pyengine.notation`)."""

OptionValue = int | str | bool

class RefusedAction(ValueError):
    """An action the engine will not apply: the common base of :class:`UnreadableAction` and
    :class:`IllegalAction` (catch it where either is refused alike, as a record's replay does)."""


class UnreadableAction(RefusedAction):
    """Text that does not read as any action of the game; the message says how the game's actions look."""


class IllegalAction(RefusedAction):
    """A well-written action that the rules do not allow now; the message says why in the game's words."""


@dataclass(frozen=True)
class Option:
    """One lobby option of a game: a name, a default and the allowed values."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    label: str
    help: str = ""
    labels: tuple[str, ...] = ()
    """Each choice in plain words, in the order of ``choices`` (the lobby shows these, never the values)."""

    def check(self, value: object) -> OptionValue:
        """The value if allowed, else ``ValueError`` naming the allowed values."""
        for choice in self.choices:
            if value == choice and type(value) is type(choice):
                return choice
        allowed = ", ".join(json.dumps(c) for c in self.choices)
        raise ValueError(f"option {self.name!r} must be one of {allowed}; got {_short(value)}")


@dataclass(frozen=True)
class GameInfo:
    """Metadata of a registered game (the lobby and the generic tests read it)."""

    id: str
    title: str
    blurb: str
    min_players: int
    max_players: int
    rules_version: str
    cooperative: bool
    options: tuple[Option, ...] = ()
    source: str = ""
    """Where the original rules come from (shown as a link on the rules page)."""
    score_unit: str = ""
    """What ``scores()`` counts, when plain points would mislead (shown beside each score)."""
    max_actions: Callable[[int], int] = field(default=lambda players: 10_000)
    """An upper bound on the number of actions of any game with this many players."""
    allowed_players: Callable[[int, Mapping[str, OptionValue]], str | None] = field(
        default=lambda players, options: None
    )
    """Extra player-count rule depending on options: a message when not allowed, else None."""
    earlier_versions: tuple[str, ...] = ("1",)
    """Earlier rules versions whose records still replay exactly: the same rules, each dealt by its own
    generator (:func:`pyengine.rng.for_deal`)."""
    competitive_variant: Callable[[Mapping[str, OptionValue]], bool] = field(default=lambda options: False)
    """For a cooperative game: True when these options make it a competitive variant."""
    loads_positions: bool = False
    """Whether the rules build a core from a described position (``Rules.load_position``: the rules page's figures,
    the lessons, embeds). Declared here, so that the page never probes the rules class for an override."""

    @property
    def default_players(self) -> int:
        """The player count a new game starts with unless told otherwise: two, where the game takes two."""
        return min(max(2, self.min_players), self.max_players)

    def cooperative_with(self, options: Mapping[str, OptionValue]) -> bool:
        """Whether a game with these options is played together (everyone wins or loses)."""
        return self.cooperative and not self.competitive_variant(options)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The lobby's description of this game (JSON-safe)."""
        return {
            "id": self.id,
            "title": self.title,
            "blurb": self.blurb,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players,
            "rules_version": self.rules_version,
            "cooperative": self.cooperative,
            "source": self.source,
            "score_unit": self.score_unit,
            "options": [
                {
                    "name": o.name,
                    "default": o.default,
                    "choices": list(o.choices),
                    "label": o.label,
                    "help": o.help,
                    "labels": list(o.labels),
                }
                for o in self.options
            ],
        }


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, the one reading of its winners: the winning seats, each seat's place, and
    whether the seats played together (then every seat wins, or none does)."""

    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    """Each seat's place from 1, ties sharing a place: the winners first, then the others by score (higher first);
    in a game played together every seat shares the first place."""
    cooperative: bool

    @staticmethod
    def of(winners: Sequence[int], scores: Sequence[int | float], cooperative: bool) -> Outcome:
        """The outcome of a finished game with these winners and scores."""
        won = tuple(sorted(winners))
        if cooperative:
            return Outcome(won, (1,) * len(scores), True)
        ranks = tuple(
            1 if seat in won else 1 + len(won) + sum(1 for other, s in enumerate(scores)
                                                      if other not in won and s > score)
            for seat, score in enumerate(scores)
        )
        return Outcome(won, ranks, False)

    @property
    def won(self) -> bool:
        """Whether anyone won (a game played together: whether the team won)."""
        return bool(self.winners)

    def share(self, seat: int) -> float:
        """``seat``'s share of the win: 1 for every seat of a won game played together, else one winner's part."""
        if seat not in self.winners:
            return 0.0
        return 1.0 if self.cooperative else 1.0 / len(self.winners)

    def words(self) -> str:
        """The game's end in words, seats as placeholders (see :func:`pyengine.words.say`)."""
        if self.cooperative:
            return "Everyone wins!" if self.winners else "Time is up: the game is lost."
        if not self.winners:
            return "Game over: nobody wins."
        if len(self.winners) == 1:
            return f"{{{self.winners[0]}}} {{{self.winners[0]}:wins}}!"
        return " and ".join(f"{{{w}}}" for w in self.winners) + " win!"

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "ranks": list(self.ranks), "cooperative": self.cooperative}


@dataclass(frozen=True)
class NamedPosition:
    """A position worth showing by name: a description for ``load_position`` with its seats and options."""

    title: str
    players: int
    position: Mapping[str, Any]
    options: Mapping[str, OptionValue] = field(default_factory=dict)


class Rules:
    """What a game implements, as its ``<Game>Rules`` class. Every method is a pure function of its arguments."""

    info: GameInfo
    notation: Notation
    """The game's action kinds: each written and read by one declaration."""
    positions: Mapping[str, NamedPosition] = {}
    """Named positions (rules-page figures, embeds): see :func:`named_position`."""
    ai_tuning: Mapping[str, Mapping[str, Any]] = {}
    """By computer level name (:data:`pyengine.ai.LEVELS`), settings of that level measured to play this game
    better, each against the level below (a budget of iterations too, where the game's decisions are quick enough
    to stay within the level's time in the browser); ``from_players`` holds settings for that many players and
    more: see ``Level.for_rules``."""

    def open_information(self, options: Mapping[str, OptionValue]) -> bool:
        """Whether nothing that matters is hidden with these options (so a game's address may pass between
        players): False unless the game says so."""
        return False

    def setup(self, players: int, options: Mapping[str, OptionValue], rng: Rng) -> Core:
        """The core at the start of a game (the core owns ``rng`` from here on)."""
        raise NotImplementedError

    def current_player(self, core: Core) -> int | None:
        """The seat that decides next, or None when the game is over."""
        raise NotImplementedError

    def legal_actions(self, core: Core) -> list[Action]:
        """Every legal action in a deterministic order (empty exactly when over)."""
        raise NotImplementedError

    def apply(self, core: Core, action: Action) -> Core:
        """The next core; ``action`` is known to be legal."""
        raise NotImplementedError

    def why_illegal(self, core: Core, action: Action) -> str:
        """Why ``action`` (well written, but not among the legal actions) is not legal now, in the game's words.

        Only called while the game is not over.
        """
        return f"{self.notation.write(action)} is not a legal action now"

    def attempt(self, core: Core, facts: Mapping[str, Any]) -> Action:
        """The action (legal or not) that a player's attempt describes by its facts (as :meth:`facts` gives
        them); ``ValueError`` for malformed facts, ``IllegalAction`` for an attempt no action can express."""
        return self.notation.from_facts(facts)

    def facts(self, core: Core, action: Action) -> dict[str, Any]:
        """What the legal ``action`` does, for the page: ``kind`` plus cards, places and pieces (JSON-safe)."""
        return self.notation.facts(action)

    def scores(self, core: Core) -> list[int | float]:
        """Each seat's score now."""
        raise NotImplementedError

    def winners(self, core: Core) -> list[int]:
        """The winning seats once the game is over (every seat for a won cooperative game)."""
        raise NotImplementedError

    def view(self, core: Core, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (None: the public view), JSON-safe."""
        raise NotImplementedError

    def sample_hidden(self, core: Core, seat: int | None, rng: Rng) -> Core:
        """A core consistent with ``view(core, seat)``, every hidden card re-dealt with ``rng``.

        It must depend only on what ``seat`` sees and on ``rng``: the core's own generator
        is hidden too and is replaced by one drawn from ``rng``.
        """
        raise NotImplementedError

    def describe(self, before: Core, action: Action, after: Core) -> Entry:
        """The public log entry for ``action`` (it must reveal nothing hidden; seats as placeholders)."""
        seat = self.current_player(before)
        return Entry(seat, f"{{{seat}}} {{{seat}:plays}} {self.notation.write(action)}", {"kind": "action"})

    def evaluate(self, core: Core) -> list[float] | None:
        """Optional AI hook: each seat's chance of winning from here, in [0, 1]."""
        return None

    def rollout_action(self, core: Core, rnd: random.Random) -> Action:
        """Optional AI hook: the legal action a quick playout takes (default: uniformly random).

        It must be cheap and draw its chances only from ``rnd`` (the search stays reproducible); the
        search also tries it first among a position's untried actions."""
        return rnd.choice(self.legal_actions(core))

    def rank_actions(self, core: Core, actions: list[Action]) -> list[Action] | None:
        """Optional AI hook: ``actions`` (the mover's) best first by a quick look at where each leads, or None
        when the game does not rank them (the default).

        A level with a root width weighs only the best few of a wide choice. The search calls it on a
        re-dealt core, so it sees only what the mover may see; it must be cheap next to the search."""
        return None

    def judgement(self, core: Core, seat: int) -> float | None:
        """Optional AI hook: how good the position looks from ``seat``'s view alone, as a thoughtful player judges
        it (the seat's lead over the best other seat, in the game's own units), or None when the game has none.

        The search weighs its root's moves by it, each played through the rest of the seat's turn
        (:func:`pyengine.planning.plan_turn`); the rule-based yardstick (``tests/bench/rulebased.py``) plays by it."""
        return None

    def search_actions(self, core: Core) -> list[Action]:
        """Optional AI hook: the legal actions the search weighs (default: all of them).

        A game may leave out moves that no sensible player makes (a dominated move), so that the search
        spends its budget on the others; never empty while the game goes on, drawn from the core alone."""
        return self.legal_actions(core)

    def load_position(
        self, players: int, options: Mapping[str, OptionValue], position: Mapping[str, Any]
    ) -> Core:
        """Optional: a core built from a position description (e.g. a rules-page figure)."""
        raise ValueError(f"{self.info.id} has no loadable positions")

    def write_position(self, core: Core) -> dict[str, Any] | None:
        """The description of ``core`` that :meth:`load_position` reads back to the same position: the same view
        for every seat, and the same state up to what no seat sees (the draw pile's order, the generator). None
        where the game's position format has no words for the state (a thief's steal half done, a finished
        game), and for a game that loads no positions."""
        return None


MAX_MESSAGE = 300
"""A message about bad input is cut to this length (it must never echo the input back at length)."""


def brief(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _short(value: object) -> str:
    """A value named in a message: numbers and short texts as they are, anything long cut short."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        text = str(value) if value.bit_length() < 64 else f"a {value.bit_length()}-bit number"
        return text
    if isinstance(value, float):
        return repr(value)
    return quote(value)


_REGISTRY: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Add a game's rules to the registry (called by each game package as it is imported)."""
    _REGISTRY[rules.info.id] = rules
    return rules


def rules_for(game_id: object) -> Rules:
    """A game's rules by id, its module imported on first use; ``ValueError`` naming the games there are."""
    from .games import GAME_MODULES, load

    if not isinstance(game_id, str) or game_id not in GAME_MODULES:
        raise ValueError(f"unknown game {_short(game_id)}; the games are: {', '.join(GAME_MODULES)}")
    if game_id not in _REGISTRY:
        load(game_id)
    return _REGISTRY[game_id]


def check_players(info: GameInfo, players: object) -> int:
    """``players`` if it is a whole number of players the game takes; else ``ValueError`` saying what it takes."""
    if not isinstance(players, int) or isinstance(players, bool) or not info.min_players <= players <= info.max_players:
        raise ValueError(f"{info.title} takes {info.min_players} to {info.max_players} players; got {_short(players)}")
    return players


def check_setup(
    rules: Rules, players: object, options: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Validated options with defaults filled in; ``ValueError`` naming the allowed values."""
    info = rules.info
    count = check_players(info, players)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be an object of option values; got {type(options).__name__}")
    known = {o.name for o in info.options}
    unknown = sorted(set(options) - known)
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise ValueError(f"unknown option {quote(unknown[0])} for {info.title}; the options are: {allowed}")
    checked = {o.name: o.check(options.get(o.name, o.default)) for o in info.options}
    problem = info.allowed_players(count, checked)
    if problem:
        raise ValueError(problem)
    return checked


class State:
    """An immutable game state: a game's core plus the history that produced it."""

    __slots__ = (
        "rules", "players", "options", "seed", "core", "position", "takebacks", "version",
        "_parent", "_action", "_actions", "_legal", "_line", "played",
    )

    def __init__(
        self,
        rules: Rules,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int | None,
        core: Core,
        position: Mapping[str, Any] | None = None,
        parent: State | None = None,
        action: Action | None = None,
        version: str | None = None,
    ) -> None:
        self.rules = rules
        self.version = version or rules.info.rules_version
        """The rules version the game was dealt under (its record's; an earlier one for an older record)."""
        self.players = players
        self.options = dict(options)
        self.seed = seed
        self.core = core
        self.position = position
        self._parent = parent
        self._action = action
        self._actions: list[Action] | None = None
        self._legal: dict[str, Action] | None = None
        self._line: Entry | None = None
        self.played: int = 0 if parent is None else parent.played + 1
        """How many actions led here: the length of :meth:`history`, without walking it."""
        self.takebacks = 0
        """How many take-backs this game has had (kept in its record; see :mod:`pyengine.takeback`)."""

    # -- the decision ---------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.rules.info.id

    @property
    def current_player(self) -> int | None:
        return self.rules.current_player(self.core)

    def _legal_actions(self) -> list[Action]:
        if self._actions is None:
            self._actions = self.rules.legal_actions(self.core)
        return self._actions

    def _legal_by_text(self) -> dict[str, Action]:
        if self._legal is None:
            actions = self._legal_actions()
            by_text = {str(a): a for a in actions}
            if len(by_text) != len(actions):
                raise AssertionError(f"{self.game}: two legal actions share a notation")
            self._legal = by_text
        return self._legal

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a deterministic order; empty exactly when the game is over."""
        return list(self._legal_actions())

    def legal_texts(self) -> list[str]:
        return list(self._legal_by_text())

    def index_of(self, action: Action) -> int:
        """Where ``action``, one of the legal actions, stands among them (in ``legal_actions``' order, which is
        ``legal_texts``' too): the number an address writes for a move. ``ValueError`` when it is not legal."""
        for index, legal in enumerate(self._legal_actions()):
            if legal is action:
                return index
        return self.legal_texts().index(str(action))  # an equal action made elsewhere

    def parse_action(self, text: str) -> Action:
        """The legal action written ``text`` (the inverse of ``str``). Else :class:`UnreadableAction` for a text that
        reads as no action of the game (saying how they look), or :class:`IllegalAction` for a well-written one the
        rules do not allow now (saying why in the game's words)."""
        if not isinstance(text, str):
            raise UnreadableAction(f"an action is written as text; got {quote(text)}")
        text = text.strip()
        action = self._legal_by_text().get(text)
        if action is not None:
            return action
        if self.is_terminal():
            raise IllegalAction("the game is over")
        parsed = self.rules.notation.parse(text)
        if parsed is None:
            raise UnreadableAction(self.rules.notation.help(text))
        raise IllegalAction(self.rules.why_illegal(self.core, parsed))

    def why_not(self, facts: object, seat: int | None = None) -> str | None:
        """Why the move a player tried (described by its facts, as ``moves()`` gives them) is refused now, in the
        game's words; None when it is legal. ``seat``: who tried (refused when it is not theirs to decide).

        The attempt is written with the game's notation and explained by the game's ``why_illegal``;
        malformed facts raise ``ValueError`` saying what is wrong.
        """
        if not isinstance(facts, Mapping):
            raise ValueError(f"the facts of a move are an object; got {type(facts).__name__}")
        try:
            action = self.rules.attempt(self.core, facts)
        except IllegalAction as exc:
            return str(exc)
        if self.is_terminal():
            return "the game is over"
        if seat is not None and seat != self.current_player:
            return "it is not your turn"
        text = self.rules.notation.write(action)
        if text in self._legal_by_text():
            return None
        return self.rules.why_illegal(self.core, action)

    def moves(self) -> dict[str, dict[str, Any]]:
        """``{text: facts}`` of every legal action (the page's only way to know what an action does)."""
        return {text: self.rules.facts(self.core, action) for text, action in self._legal_by_text().items()}

    def apply(self, action: Action | str) -> State:
        """The state after ``action`` (or its text); the receiver never changes."""
        if not isinstance(action, str) and id(action) in set(map(id, self._legal_actions())):
            legal = action  # one of the legal actions' own objects (a random or computer player's choice)
        else:
            legal = self.parse_action(action if isinstance(action, str) else str(action))
        core = self.rules.apply(self.core, legal)
        after = State(self.rules, self.players, self.options, self.seed, core, self.position, self, legal,
                      self.version)
        after.takebacks = self.takebacks
        return after

    def with_takebacks(self, count: int) -> State:
        """This state, counting ``count`` take-backs in its record."""
        copy = State(self.rules, self.players, self.options, self.seed, self.core, self.position, self._parent,
                     self._action, self.version)
        copy._line = self._line
        copy.takebacks = count
        return copy

    # -- results --------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player is None

    def scores(self) -> list[int | float]:
        return self.rules.scores(self.core)

    def winners(self) -> list[int]:
        return self.rules.winners(self.core) if self.is_terminal() else []

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on): winners, places, and whether it was played together."""
        if not self.is_terminal():
            return None
        return Outcome.of(self.winners(), self.scores(), self.rules.info.cooperative_with(self.options))

    # -- information ------------------------------------------------------------------
    def history(self) -> list[tuple[State, Action]]:
        """(state before, action) pairs from the start."""
        steps: list[tuple[State, Action]] = []
        node: State | None = self
        while node is not None and node._parent is not None:
            steps.append((node._parent, node._action))
            node = node._parent
        steps.reverse()
        return steps

    def steps_since(self, ancestor: State | None) -> list[tuple[State, Action]] | None:
        """The (state before, action) steps from ``ancestor`` to this state, or None if it is not an ancestor.

        It walks back only as far as ``ancestor``, so following a game move by move costs one step a move.
        """
        steps: list[tuple[State, Action]] = []
        node: State | None = self
        while node is not None and node is not ancestor:
            if node._parent is None:
                return None
            steps.append((node._parent, node._action))
            node = node._parent
        if node is None:
            return None
        steps.reverse()
        return steps

    def history_parent(self) -> State | None:
        """The state before the last action (None at the start)."""
        return self._parent

    def entry(self) -> Entry | None:
        """The log entry of the action that made this state (None at the start)."""
        if self._parent is None:
            return None
        if self._line is None:
            self._line = self.rules.describe(self._parent.core, self._action, self.core)
        return self._line

    def log(self, last: int | None = None) -> list[Entry]:
        """The public game log, one entry per action (only the ``last`` entries if given)."""
        lines: list[Entry] = []
        node: State | None = self
        while node is not None and node._parent is not None and (last is None or len(lines) < last):
            if node._line is None:
                node._line = self.rules.describe(node._parent.core, node._action, node.core)
            lines.append(node._line)
            node = node._parent
        lines.reverse()
        return lines

    def view(self, seat: int | None = None, *, moves: bool = True) -> dict[str, Any]:
        """Everything ``seat`` may see and nothing more (None: the public view), JSON-safe. ``moves=False``
        leaves out the deciding seat's ``moves`` (their facts), for a caller that compares only what is seen."""
        check_seat(seat, self.players)
        view = {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seat": seat,
            "current_player": self.current_player,
            "over": self.is_terminal(),
            "scores": self.scores(),
            "winners": self.winners(),
            "moves": self.moves() if moves and seat is not None and seat == self.current_player else {},
        }
        view.update(self.rules.view(self.core, seat))
        return view

    def sample_hidden(self, seat: int | None, rng: Rng | int) -> State:
        """A full state consistent with ``view(seat)``, hidden cards re-dealt at random.

        The result keeps the public history (for its log) but has no seed: it is a
        determinization for search, not a replayable game.
        """
        check_seat(seat, self.players)
        if isinstance(rng, int) and not isinstance(rng, bool):
            rng = Rng.from_seed(rng)
        if not isinstance(rng, Rng):
            raise ValueError(f"the generator must be an Rng or an integer seed; got {type(rng).__name__}")
        core = self.rules.sample_hidden(self.core, seat, rng)
        sample = State(self.rules, self.players, self.options, None, core, self.position, self._parent, self._action,
                       self.version)
        sample._line = self._line
        return sample

    # -- the record -------------------------------------------------------------------
    def record(self, actions: list[str] | None = None) -> dict[str, Any]:
        """``{game, rules_version, players, options, seed, actions}``, plus ``position`` if the game started from
        one and ``takebacks`` (how many) if the game had any. ``actions``: the action texts, when the caller
        already has them (a page following the game move by move)."""
        if self.seed is None:
            raise ValueError("a sampled (determinized) state has no replayable record")
        record: dict[str, Any] = {
            "game": self.game,
            "rules_version": self.version,
            "players": self.players,
            "options": dict(self.options),
            "seed": seed_field(self.seed),
        }
        if self.position is not None:
            record["position"] = self.position
        record["actions"] = actions if actions is not None else [str(action) for _, action in self.history()]
        if self.takebacks:
            record["takebacks"] = self.takebacks
        return record

    def to_json(self) -> str:
        return json.dumps(self.record(), ensure_ascii=False, sort_keys=True)

    # -- identity ---------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.game == other.game
            and self.players == other.players
            and self.options == other.options
            and self.core == other.core
        )

    def __hash__(self) -> int:
        return hash((self.game, self.players, self.core))

    def __repr__(self) -> str:
        return f"<State {self.game} players={self.players} seed={self.seed} actions={self.played}>"


def new_game(
    game_id: str,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    position: Mapping[str, Any] | None = None,
    rules_version: str | None = None,
) -> State:
    """A new game; ``ValueError`` naming the allowed values for a bad id, player count or option.

    ``rules_version``: an earlier version of the game's rules (:attr:`GameInfo.earlier_versions`), to deal an
    older record's game with its own generator; None for the current version."""
    rules = rules_for(game_id)
    checked = check_setup(rules, players, options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer; got {quote(seed)}")
    version = check_version(rules.info, rules_version or rules.info.rules_version)
    rng = for_deal(seed, version)
    if position is None:
        core = rules.setup(players, checked, rng)
    else:
        if not isinstance(position, Mapping):
            raise ValueError(f"a position must be an object; got {type(position).__name__}")
        try:
            core = rules.load_position(players, checked, position)
        except ValueError as exc:
            raise ValueError(brief(str(exc))) from None
        except (TypeError, KeyError, IndexError, AttributeError) as exc:  # a malformed description, named plainly
            raise ValueError(f"the position is not valid: {type(exc).__name__}: {quote(str(exc))}") from None
    return State(rules, players, checked, seed, core, position, version=version)


JS_EXACT = 2**53 - 1
"""The largest whole number JavaScript's numbers hold exactly."""
MAX_SEED_DIGITS = 40


def seed_field(seed: int) -> int | str:
    """A seed as a record writes it: a number while JavaScript holds it exactly, else its decimal digits (a new
    game's 128-bit seed), so that no page that reads the record as JSON changes its deal."""
    return seed if abs(seed) <= JS_EXACT else str(seed)


def read_seed(value: object) -> int:
    """A record's seed (a whole number, or at most :data:`MAX_SEED_DIGITS` decimal digits); else ``ValueError``."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**MAX_SEED_DIGITS:
        return value
    if isinstance(value, str):
        digits = value.removeprefix("-")
        if 0 < len(digits) <= MAX_SEED_DIGITS and digits.isascii() and digits.isdigit():
            return int(value)
    shown = "a number too long" if type(value) is int else quote(value)
    raise ValueError(f"record field 'seed' must be a whole number of at most {MAX_SEED_DIGITS} digits; got {shown}")


def check_version(info: GameInfo, version: object) -> str:
    """``version`` if this engine plays (or still replays) that version of the game's rules; else ``ValueError``."""
    if isinstance(version, str) and (version == info.rules_version or version in info.earlier_versions):
        return version
    raise ValueError(f"record field 'rules_version' is {quote(version)}; "
                     f"this engine plays {info.id} rules version {info.rules_version!r}")


def named_position(game_id: str, name: object) -> State:
    """The state of one of a game's named positions; ``ValueError`` naming the positions there are."""
    rules = rules_for(game_id)
    found = rules.positions.get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(rules.positions) or "none"
        raise ValueError(f"{rules.info.title} has no position {quote(name)}; its positions are: {known}")
    return new_game(game_id, found.players, 0, dict(found.options), dict(found.position))


_RECORD_KEYS = ("game", "rules_version", "players", "options", "seed", "actions")


def check_seat(seat: object, players: int) -> None:
    """``ValueError`` unless ``seat`` is None or a seat number (not a bool) below ``players``."""
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
        got = quote(seat) if isinstance(seat, str) else repr(seat)
        raise ValueError(f"seat must be None or 0..{players - 1}; got {got}")


def replay(record: object) -> State:
    """Rebuild the exact state of a record; ``ValueError`` names the failing field or step."""
    if not isinstance(record, Mapping):
        raise ValueError(f"a record must be an object; got {type(record).__name__}")
    for key in _RECORD_KEYS:
        if key not in record:
            raise ValueError(f"record field {key!r} is missing")
    extra = sorted(str(k) for k in set(record) - set(_RECORD_KEYS) - {"position", "takebacks"})
    if extra:
        raise ValueError(f"record field {quote(extra[0])} is not part of a record")
    rules = rules_for(record["game"])
    version = check_version(rules.info, record["rules_version"])
    seed = read_seed(record["seed"])
    if not isinstance(record["options"], Mapping):
        raise ValueError(f"record field 'options' must be an object; got {type(record['options']).__name__}")
    position = record.get("position")
    if position is not None and not isinstance(position, Mapping):
        raise ValueError("record field 'position' must be an object")
    players = record["players"]
    try:
        checked = check_setup(rules, players, record["options"])
    except ValueError as exc:
        field_name = "players" if "players" in str(exc) else "options"
        raise ValueError(f"record field {field_name!r}: {exc}") from None
    try:
        state = new_game(record["game"], players, seed, checked, position, version)
    except ValueError as exc:
        raise ValueError(f"record field 'position': {exc}") from None
    actions = record["actions"]
    if not isinstance(actions, Sequence) or isinstance(actions, str):
        raise ValueError("record field 'actions' must be a list of action texts")
    takebacks = record.get("takebacks", 0)
    if not isinstance(takebacks, int) or isinstance(takebacks, bool) or not 0 <= takebacks < 1_000_000:
        raise ValueError("record field 'takebacks' must be a count of take-backs")
    state.takebacks = takebacks
    for step, text in enumerate(actions):
        if not isinstance(text, str):
            raise ValueError(f"record step {step}: an action must be text; got {type(text).__name__}")
        try:
            state = state.apply(text)
        except RefusedAction as exc:
            said = str(exc)
            where = f"record step {step}" if quote(text) in said else f"record step {step} ({quote(text)})"
            raise ValueError(f"{where}: {brief(said)}") from None
    return state


def from_json(text: str) -> State:
    """The state of a JSON record made by ``State.to_json``; ``ValueError`` for anything else."""
    return replay(read_json(text))
