"""The lesson of Card-cassonne: five short steps on the real table, each in one of ``position.LESSON_POSITIONS``
(the last one is the rules page's ``figure-1`` in a game going on).

Rule numbers are those of the rules page, ``web/rules/cardcassonne.html``.
"""

from __future__ import annotations

from ...lessons import ONE_MOVE, Goal, Lesson, Step

LESSON = Lesson(
    game="cardcassonne",
    first_game={"players": 2},
    steps=(
        Step(
            position="lesson-place",
            task="Play your 6 of hearts next to the 5 of hearts.",
            rule="Each turn you play one card into an empty space touching the table. A card that touches only "
            "one card may go there whatever it is. Touching cards of one suit make an area. Then you draw a card.",
            teaches=({"kind": "play", "card": "6♡"},),
            wrong="Play the 6 of hearts beside the 5 of hearts: together they make a hearts area.",
            solution=("6♡ @ 1,0",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-between",
            task="Play your 6 of spades into the space between the 3 of clubs and the 9 of diamonds.",
            rule="A card touching two or more cards must share their suit, or lie between their lowest and "
            "highest value: 6 lies between 3 and 9, a king does not.",
            teaches=({"kind": "play", "card": "6♠", "x": 1, "y": 0},),
            wrong="Play the 6 of spades into the space between the two cards.",
            solution=("6♠ @ 1,0",),
            mistakes=("K♠ @ 1,0",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-token",
            task="Play your 6 of hearts beside the hearts, then put a token on it.",
            rule="After playing you may put one of your 7 tokens on that card, if its area has no token yet. "
            "A token earns points when its area is scored, and comes back to you; one still on a jack, queen, "
            "king or ace when the game ends earns 3.",
            teaches=({"kind": "play", "card": "6♡"}, {"kind": "token"}),
            wrong="Play the 6 of hearts next to the hearts, then choose to place a token.",
            solution=("6♡ @ 2,0", "token"),
            goal=Goal("moves", 2),
        ),
        Step(
            position="lesson-complete",
            task="Fill the last empty space beside your hearts area to complete it.",
            rule="An area with no empty space beside it is complete: whoever completes it earns 3 points, and "
            "each token in it earns its area's value, one point a card for one or two cards.",
            teaches=({"kind": "play", "x": -1, "y": 0}, {"kind": "token"}, {"kind": "no-token"}),
            wrong="Play a card into the one empty space left beside the 5 of hearts.",
            solution=("9♢ @ -1,0", "no token"),
        ),
        Step(
            position="lesson-partial",
            task="Play your 2 of clubs, then score your hearts area before it is complete.",
            rule="An area with no more empty spaces beside it than cards is partly complete: you may score it "
            "when it holds a token. Big areas are worth two points a card.",
            teaches=({"kind": "play", "card": "2♣"}, {"kind": "no-token"}, {"kind": "score"}),
            wrong="Score your hearts area now: it has two cards and only two empty spaces beside it.",
            solution=("2♣ @ 0,-2", "no token", "score ♡ area at 0,0"),
            mistakes=("2♣ @ 1,1",),
            done="That is all a first game needs: play one against the easy computer.",
        ),
    ),
)
