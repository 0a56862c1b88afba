"""An embed's answers to a host's commands: refusals in words, with the command's id kept."""

from __future__ import annotations

import json

import pytest
from cardtable_web.effects import Post
from cardtable_web.embed_controller import EmbedController


def frame() -> EmbedController:
    controller = EmbedController()
    controller.open_address("?game=carbondale&position=figure-1")
    return controller


def answer(controller: EmbedController, command: object) -> dict[str, object]:
    posts = [e.event for e in controller.command(json.dumps(command)) if isinstance(e, Post)]
    assert posts
    return posts[0]


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ({"type": [], "id": 3}, "a command's type is a text (load or play), not a list"),
        ({"type": 7, "id": "x"}, "not a number"),
        ({"type": "play", "action": ["x"], "id": 4}, "names its action as text, not a list"),
        ({"type": "load", "position": "figure-1", "options": [1], "id": 5}, "options is an object, not a list"),
        ({"type": "load", "position": "figure-1", "players": "2", "id": 6}, "players is a whole number, not a text"),
        ({"type": "dance", "id": 8}, "unknown command type"),
    ],
)
def test_a_refused_command_is_named_in_words_and_keeps_its_id(command: dict[str, object], words: str) -> None:
    event = answer(frame(), command)
    assert event["type"] == "error" and words in str(event["message"]), event
    assert event["id"] == command["id"]


def test_a_named_position_refuses_options_it_does_not_take() -> None:
    event = answer(frame(), {"type": "load", "position": "figure-1", "options": {"rounds": 9}, "id": 1})
    assert event["type"] == "error" and "brings its own options" in str(event["message"]) and event["id"] == 1


def test_an_unreadable_command_is_refused_without_a_traceback() -> None:
    controller = frame()
    posts = [e.event for e in controller.command("{not json") if isinstance(e, Post)]
    assert posts[0]["type"] == "error" and "id" not in posts[0]
    posts = [e.event for e in controller.command(None) if isinstance(e, Post)]
    assert posts[0]["message"] == "a command is a plain object"
