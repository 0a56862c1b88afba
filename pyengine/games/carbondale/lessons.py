"""The lesson of Carbondale: six short steps on the real table, each in one of ``position.LESSON_POSITIONS``.

Rule numbers are those of the rules page, ``web/rules/carbondale.html``.
"""

from __future__ import annotations

from ...lessons import ONE_MOVE, WIN, Goal, Lesson, Step

BUILD_AND_GIVE = Goal("moves", 2)
"""A build, then the card given to the stock."""

LESSON = Lesson(
    game="carbondale",
    first_game={"players": 2},
    steps=(
        Step(
            position="lesson-build",
            task="Build your 4 of clubs next to your 2 of clubs, then give a card to the stock.",
            rule="Each card you build lies next to a black card of your network. A club on a club (or a spade on "
            "a spade) may be up to 2 higher; a club on a spade, up to 1 higher. After building, you give "
            "another card from your hand to the stock, face up.",
            teaches=({"kind": "build", "card": "4♣"}, {"kind": "contribute"}),
            wrong="Build the 4 of clubs next to your 2 of clubs, then give a card to the stock.",
            solution=("build 4♣ at 1,1 north of 2♣", "contribute 9♢"),
            mistakes=("build 4♠ at 0,1 north of A♠",),
            goal=BUILD_AND_GIVE,
        ),
        Step(
            position="lesson-red",
            task="Build your 2 of hearts on your 2 of clubs, then give a card to the stock.",
            rule="Hearts are built on clubs and diamonds on spades, never higher than the card under them. "
            "Red cards are what you collect: two may share one space.",
            teaches=({"kind": "build", "card": "2♡"}, {"kind": "contribute"}),
            wrong="Build the 2 of hearts on your 2 of clubs.",
            solution=("build 2♡ at 1,1 north of 2♣", "contribute 9♢"),
            mistakes=("build 3♡ at 1,1 north of 2♣",),
            goal=BUILD_AND_GIVE,
        ),
        Step(
            position="lesson-discard",
            task="Nothing to build: discard your 9 of diamonds face down, then draw a card.",
            rule="Instead of building you may discard cards, face up to the stock or face down. At the end of "
            "your turn you draw back up to 4 cards, from the draw pile or from the stock (5 after building a club "
            "on a club, or a spade on a spade, at most 1 higher).",
            teaches=({"kind": "discard", "card": "9♢", "face_up": False}, {"kind": "draw"}, {"kind": "take"}),
            wrong="Discard the 9 of diamonds face down, then draw a card.",
            solution=("discard 9♢ face down", "draw from pile"),
        ),
        Step(
            position="lesson-claim",
            task="Claim the computer's 3 of clubs with your 5 of clubs.",
            rule="A card nothing is built from, and that is not a starting card, can be claimed: show a card of "
            "its colour at least 2 higher. Its owner may defend with a card of that colour at least as high; if "
            "not, the card goes into your hand.",
            teaches=({"kind": "claim", "challenge": "5♣"},),
            wrong="Claim the computer's 3 of clubs with your 5 of clubs.",
            solution=("claim 3♣ at 0,1 from P2 with 5♣",),
            mistakes=("claim 3♣ at 0,1 from P2 with 9♢",),
            goal=ONE_MOVE,
            answer=("decline",),
            done="The computer did not defend: its 3 of clubs is now in your hand.",
        ),
        Step(
            position="lesson-defend",
            before=("claim 3♣ at 0,1 from P1 with 5♣",),
            task="The computer claims your 3 of clubs with its 5 of clubs: defend it with your 7 of spades.",
            rule="When a card of yours is claimed, you may show a card of the challenge card's colour, at least as "
            "high. Both shown cards are discarded face down and your card stays. If you don't defend, the "
            "claimer takes your card into their hand.",
            teaches=({"kind": "defend", "card": "7♠"},),
            wrong="Defend your 3 of clubs with your 7 of spades.",
            solution=("defend with 7♠",),
            mistakes=("defend with 8♡",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-win",
            task="Build your 3 of hearts: seven hearts and three diamonds win.",
            rule="You win the moment your network holds 7 hearts and 3 diamonds, or 7 diamonds and 3 hearts.",
            teaches=({"kind": "build", "card": "3♡"},),
            wrong="Build the 3 of hearts on one of your clubs.",
            solution=("build 3♡ at 3,1 north of 4♣",),  # the highest place on the screen: in view on a small phone
            goal=WIN,
            done="You won! That is all a first game needs: play one against the easy computer.",
        ),
    ),
)
