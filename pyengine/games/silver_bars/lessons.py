"""The lesson of 100 Silver Bars: nine short steps on the real table, each in one of
``position.LESSON_POSITIONS``.

Rule numbers are those of the rules page, ``web/rules/silver-bars.html``.
"""

from __future__ import annotations

from ...lessons import WIN, Lesson, Step

LESSON = Lesson(
    game="silver-bars",
    first_game={"players": 2},
    steps=(
        Step(
            position="lesson-silver",
            task="Put your 4 of silver into your first vault.",
            rule="Aces, 2s, 3s, 4s and 6s are silver, worth their number. Silver goes into one of your own "
            "empty vaults. After playing a card you draw one.",
            teaches=({"kind": "play", "token": "4", "vault": 0},),
            wrong="Put the 4 of silver into your first vault.",
            solution=("play 4 v1",),
        ),
        Step(
            position="lesson-miner",
            task="Put a miner, your 8, on your silver.",
            rule="7s, 8s, 9s and 10s are miners. A miner goes on silver in one of your vaults, so that more "
            "silver can go on top of it.",
            teaches=({"kind": "miner", "token": "8"},),
            wrong="Put the 8 on your silver: it is the miner this step is about.",
            solution=("miner 8 v1",),
        ),
        Step(
            position="lesson-deeper",
            task="Put your 6 on the miner in your first vault.",
            rule="Silver on a miner must be higher than the silver under that miner: a 6 may go on a 4, a 2 "
            "may not. Silver never goes straight on silver.",
            teaches=({"kind": "play", "token": "6", "vault": 0},),
            wrong="Put the 6 on your miner: it is higher than the 4 under it.",
            solution=("play 6 v1",),
            mistakes=("play 2 v1",),
        ),
        Step(
            position="lesson-lock",
            task="Lock your first vault.",
            rule="Only locked vaults score: every silver card in them counts when the round ends. A lock goes "
            "on silver, takes your whole turn and keeps the vault safe for the rest of the round.",
            teaches=({"kind": "lock", "vault": 0},),
            wrong="Lock your first vault: it holds 10 in silver.",
            solution=("lock v1",),
        ),
        Step(
            position="",
            continues=True,
            before=("play 3 v3",),
            task="Play your jack, a lo thief, and put the stolen silver in your third vault.",
            rule="A lo thief (a jack) steals the lowest silver on top of the other player's unlocked vaults, a "
            "hi thief (a joker) the highest. You must be able to put the stolen silver in a vault of yours.",
            teaches=({"kind": "lo-thief"}, {"kind": "place", "vault": 2}),
            wrong="Play the lo thief, then put the stolen 2 in your third vault, which is empty.",
            solution=("lo-thief", "place v3"),
        ),
        Step(
            position="lesson-rubble",
            task="Clear the rubble from your fourth vault with your shovel.",
            rule="Rubble (a king) goes into the other player's empty vault and blocks it. A shovel (a queen) "
            "clears rubble from one of your vaults.",
            teaches=({"kind": "shovel"},),
            wrong="Use the shovel on the rubble in your fourth vault.",
            solution=("shovel v4",),
        ),
        Step(
            position="lesson-strike",
            task="Call a worker's strike with your queen of spades.",
            rule="A strike throws out every miner on top of the other player's unlocked vaults, and that player "
            "spends their next turn clearing the strike.",
            teaches=({"kind": "strike"},),
            wrong="Call the strike: the computer has two miners to lose.",
            solution=("strike",),
        ),
        Step(
            position="lesson-discard",
            task="Nothing fits: discard a card, and draw a new one.",
            rule="Instead of playing, you may always discard any one card and draw. Your hand holds 7 cards at "
            "the end of every turn.",
            teaches=({"kind": "discard"},),
            wrong="Discard one card.",
            solution=("discard 10",),
            mistakes=("play 9 v1", "lock v1"),
        ),
        Step(
            position="lesson-win",
            task="Lock your fifth vault: the round ends, and you reach 100.",
            rule="The round ends when someone puts on their fifth lock, or when the draw pile runs out. The "
            "first to 100 over several rounds wins the match.",
            teaches=({"kind": "lock"},),
            wrong="Lock your fifth vault now.",
            solution=("lock v5",),
            goal=WIN,
            done="You won the match! That is all a first game needs: play one against the easy computer.",
        ),
    ),
)
