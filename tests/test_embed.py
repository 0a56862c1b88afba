"""The embed's address and commands (no DOM): what embed.html shows and what it refuses."""

from __future__ import annotations

import json

import pytest
from cardtable_web import embed

import pyengine

MERGE = {
    "board": [[0, 0, "5♡"], [2, 0, "7♡"], [1, -1, "9♣"], [1, 1, "3♠"]],
    "hands": [["6♡", "2♣"], ["4♢", "K♣"]],
    "tokens": [[0, 0, 0], [2, 0, 1]],
    "tokens_left": [6, 6],
}


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_every_named_position_embeds_and_draws(game: str) -> None:
    for name in pyengine.core.rules_for(game).positions:
        request = embed.from_params({"game": game, "position": name})
        frame = embed.Embed(request)
        assert request.mode == "position" and request.seat is None and not request.interactive
        assert frame.html() and frame.describe("ready")["moves"] == []


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_a_new_game_and_its_record_embed(game: str) -> None:
    info = pyengine.GAMES[game]
    players = str(min(max(2, info.min_players), info.max_players))
    request = embed.from_params({"game": game, "players": players, "seed": "4", "interactive": "1"})
    frame = embed.Embed(request)
    assert request.mode == "game" and request.seat == request.state.current_player
    assert frame.describe("ready")["moves"] == request.state.legal_texts()
    event = frame.play(request.state.legal_texts()[0], "player")[0]
    assert event["type"] == "move" and event["by"] == "player"
    record = json.dumps(frame.state.record())
    replayed = embed.Embed(embed.from_params({"game": game, "record": record, "seat": "0"}))
    assert replayed.request.mode == "record" and "replay-bar" in replayed.html()
    with pytest.raises(ValueError, match="record is shown"):
        replayed.play("anything", "host")


def test_a_position_description_plays_through_the_api() -> None:
    request = embed.from_params({"game": "cardcassonne", "position": json.dumps(MERGE), "seat": "0"})
    frame = embed.Embed(request)
    events = frame.play("6♡ @ 1,0", "host")
    assert events[0]["facts"] == {"kind": "play", "card": "6♡", "x": 1, "y": 0}
    hearts = [a for a in frame.state.view(None)["areas"] if a["suit"] == "♡"]
    assert [a["size"] for a in hearts] == [3]  # the two areas merged
    with pytest.raises(pyengine.IllegalAction):
        frame.play("6♡ @ 9,9", "host")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"game": "chess"}, "no game called"),
        ({"game": "carbondale", "position": "nowhere"}, "no position"),
        ({"game": "carbondale", "position": "{bad json"}, "not a JSON"),
        ({"game": "carbondale", "colour": "red"}, "not a setting"),
        ({"game": "carbondale", "seat": "7"}, "seat is a number"),
        ({"game": "carbondale", "interactive": "maybe"}, "interactive is 1 or 0"),
        ({"game": "carbondale", "interactive": "1", "seat": "none"}, "give seat as a number"),
        ({"game": "carbondale", "origin": "javascript:alert(1)"}, "origin is"),
        ({"game": "carbondale", "position": "figure-1", "record": "{}"}, "not both"),
        ({"game": "silver-bars", "players": "3"}, "takes 2 to 2"),
        ({"game": "cardcassonne", "position": '{"board": 3}'}, "position"),
    ],
)
def test_bad_addresses_say_why(params: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        embed.from_params(params)


def test_the_embeds_setup_is_read_by_the_one_setup_reader() -> None:
    """The same rules as the main page's address: each parameter once, ASCII digits, a fresh seed unless given."""
    request = embed.from_query("?game=silver-bars&seed=7&level=easy&delay=0&thief=lowest-placeable")
    assert request.state.seed == 7 and request.level == "easy" and request.delay == 0
    assert request.options == {"thief": "lowest-placeable"}
    assert embed.from_query("?game=silver-bars", fresh_seed=99).state.seed == 99
    assert embed.from_query("?game=silver-bars").delay == embed.EMBED_DELAY_MS
    seeds = {embed.from_query("?game=carbondale&players=2").state.seed for _ in range(5)}
    assert len(seeds) > 1, "embeds of a new game do not all deal the same cards"
    for query, words in [
        ("?game=silver-bars&seed=1&seed=2", "'seed' twice"),
        ("?game=carbles&players=\u0662", "players"),
        ("?game=silver-bars&delay=\uff15", "delay"),
        ("?game=silver-bars&level=" + "x" * 500, "level"),
        ("?game=silver-bars&bots=1", "not a setting of an embed"),
    ]:
        with pytest.raises(ValueError, match=words) as refused:
            embed.from_query(query)
        assert "x" * 41 not in str(refused.value)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("[]", "plain object"),
        ('"play"', "plain object"),
        ('{"type": "explode"}', "unknown command type"),
        ('{"type": "play"}', "names its action"),
        ('{"type": "play", "action": "x", "extra": 1}', "not a field"),
        ('{"type": "load"}', "a position or a record"),
        ('{"type": "load", "position": "a", "record": {}}', "a position or a record"),
        ('{"type": "load", "position": "a", "options": 3}', "options is an object"),
        ('{"type": "play", "action": "x", "id": [1]}', "id is"),
        ("[" * 100 + "]" * 100, "nests deeper"),
        ("x" * (embed.MAX_COMMAND + 1), "too long"),
    ],
)
def test_bad_commands_are_refused(command: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        embed.parse_command(command)


def test_good_commands_pass() -> None:
    assert embed.parse_command('{"type": "play", "action": "7 m1 +3", "id": 3}')["id"] == 3
    assert embed.parse_command('{"type": "load", "position": "figure-1", "seat": 1}')["seat"] == 1


def test_embed_code_is_a_sandboxed_iframe_with_the_sites_address() -> None:
    code = embed.embed_code("https://example.org/card-table/", "carbondale", "figure-1")
    assert code.startswith('<iframe src="https://example.org/card-table/embed.html?game=carbondale&amp;position=figure-1"')
    assert 'sandbox="allow-scripts allow-same-origin"' in code and code.endswith("</iframe>")


@pytest.mark.parametrize("game", list(pyengine.GAMES))
def test_the_position_format_section_gives_working_examples(game: str) -> None:
    html = embed.position_format_html(game, "https://example.org/card-table/")
    assert 'id="position-format"' in html
    for name, named in pyengine.core.rules_for(game).positions.items():
        described = json.dumps(dict(named.position), ensure_ascii=False)
        params = {"game": game, "players": str(named.players), "position": described}
        params |= {k: str(v).lower() for k, v in named.options.items()}
        shown = embed.from_params(params).state
        assert shown.view(None) == pyengine.core.named_position(game, name).view(None)
