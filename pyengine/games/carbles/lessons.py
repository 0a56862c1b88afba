"""The lesson of Carbles: ten short steps on the real table, each in one of ``position.LESSON_POSITIONS``.

Rule numbers are those of the rules page, ``web/rules/carbles.html``.
"""

from __future__ import annotations

from ...lessons import WIN, Lesson, Step

LESSON = Lesson(
    game="carbles",
    first_game={"players": 2},
    steps=(
        Step(
            position="lesson-out",
            task="Bring a marble out of your lot with your king.",
            rule="Your four marbles start in your lot. An ace, a king or a joker puts one on your home space, "
            "where its trip round the track begins.",
            teaches=({"kind": "out"},),
            wrong="Only an ace, a king or a joker brings a marble out of its lot.",
            solution=("K out",),
            mistakes=("5 m1 +5",),
        ),
        Step(
            position="lesson-move",
            task="Move your marble 8 spaces with your 8.",
            rule="A number card moves one of your marbles exactly that many spaces forward. An ace counts 1, "
            "a jack 11, a queen 12 and a king 13.",
            teaches=({"kind": "move", "card": "8"},),
            wrong="That works too, but this step is about the 8: play it.",
            solution=("8 m1 +8",),
        ),
        Step(
            position="lesson-knock-out",
            task="Knock out the computer's marble with your 5.",
            rule="A marble that ends its move on another marble sends that marble back to its owner's lot. "
            "Marbles you only pass over are safe.",
            teaches=({"kind": "move", "card": "5"},),
            wrong="The 5 lands exactly on the computer's marble: play the 5.",
            solution=("5 m1 +5",),
        ),
        Step(
            position="lesson-blocked",
            task="The computer's marble sits on its home space: move your marble 3 spaces with your 3.",
            rule="No marble may pass or land on a marble that sits on its own home space, so your 8 cannot go "
            "past it. Marbles elsewhere can be passed.",
            teaches=({"kind": "move", "card": "3"},),
            wrong="Play the 3: the 8 would pass the marble on its home space.",
            solution=("3 m1 +3",),
            mistakes=("8 m1 +8",),
        ),
        Step(
            position="lesson-four",
            task="Move back 4 spaces with your 4.",
            rule="The 4 always moves a marble 4 spaces backward. Played just after a marble comes out, it puts that "
            "marble a few steps from its goal.",
            teaches=({"kind": "back"},),
            wrong="This step is about the 4: it moves your marble backward.",
            solution=("4 m1 -4",),
        ),
        Step(
            position="lesson-goal",
            task="Move your marble into your goal with your 5.",
            rule="Your goal starts just before your home space. A marble may step into it instead of going round "
            "again, and goes as deep as the card says.",
            teaches=({"kind": "move_goal"},),
            wrong="Use the 5 to step into your goal, the four spaces beside your home.",
            solution=("5 m1 +5 goal",),
        ),
        Step(
            position="lesson-seven",
            task="Split your 7 between your two marbles: 3 spaces for one, 4 for the other.",
            rule="A 7 may be split among your marbles, each moving all its part before the next one moves. "
            "Every marble it lands on is knocked out.",
            teaches=({"kind": "move", "card": "7", "steps": 3}, {"kind": "move", "card": "7", "steps": 4}),
            wrong="Split the 7: move one marble 3 spaces and the other one 4.",
            solution=("7 m1 +3", "7 m2 +4"),
        ),
        Step(
            position="lesson-jack",
            task="Swap your marble with the computer's marble with your jack.",
            rule="A jack moves 11 spaces, or swaps one of your marbles with another player's marble on the track. "
            "Nobody is knocked out by a swap.",
            teaches=({"kind": "swap"},),
            wrong="The jack can do more than move: swap places with the computer's marble, far ahead.",
            solution=("J swap m1 P2m1",),
        ),
        Step(
            position="lesson-burn",
            task="No card can move a marble: burn one.",
            rule="When none of your cards can be played you burn one: you throw it away and your turn is over. "
            "If a card can be played, you must play one.",
            teaches=({"kind": "burn"},),
            wrong="Burn a card: none of them can be played now.",
            solution=("burn 9♣",),
            mistakes=("5 m1 +5", "9 m1 +9"),
        ),
        Step(
            position="lesson-win",
            task="Bring your last marble into your goal with your 2, and win.",
            rule="The first player with all four marbles in their goal wins. Then play a first game against the "
            "easy computer.",
            teaches=({"kind": "move_goal"},),
            wrong="Step into your goal with the 2: it fills the last space.",
            solution=("2 m1 +2 goal",),
            goal=WIN,
            done="You won! That is all a first game needs: play one against the easy computer.",
        ),
    ),
)
