"""One Pig game in plain words from the event log: a line a turn, the standings after each round."""
from simlab.core.play import EV_STANDINGS, standings_words

from .rules import EV_BUST, EV_END, EV_HOLD, EV_REACH, EV_ROLL

ENDINGS = {1: "{who} has banked the target ({target}): the game ends at once",
           2: "the round is finished after {who} reached the target ({target})",
           3: "the turn cap (max_turns={cap}) is reached"}


def narrate(events, n_players, values, seat_labels, every=1) -> str:
    """The game turn by turn (``every``, how often to draw a board, is moot: Pig has none)."""
    def name(p):
        return f"Seat {p + 1} ({seat_labels[p]})"

    lines, rolls, reached, scores, rnd = [], [], -1, [0] * n_players, 1

    def turn(line):
        if rnd:                           # the round's header before its first turn
            lines.append(f"Round {rnd}")
        lines.append(f"  {line}")
        return 0

    for ev in events:
        kind, a, b, c = (int(x) for x in ev[:4])
        if kind == EV_ROLL:
            rolls.append(b)
        elif kind == EV_BUST:
            faces = ", ".join(map(str, rolls + [b]))
            rnd = turn(f"{name(a)} rolls {faces}: pig! loses {c}." if c else f"{name(a)} rolls {faces}: pig!")
            rolls = []
        elif kind == EV_HOLD:
            rnd = turn(f"{name(a)} rolls {', '.join(map(str, rolls))} and holds: {b}, banked {c}.")
            rolls = []
        elif kind == EV_REACH:
            reached = a
            lines.append(f"  {name(a)} has reached the target with {b}: the others finish round {c}.")
        elif kind == EV_STANDINGS:
            scores, rnd = [int(ev[2 + p]) for p in range(n_players)], a + 1
            lines.append(standings_words(ev, n_players))
        elif kind == EV_END:
            best = [p for p in range(n_players) if scores[p] == max(scores)]
            who = name(reached if reached >= 0 else best[0])
            why = ENDINGS[a].format(who=who, target=values["target"], cap=values["max_turns"])
            won = " and ".join(name(p) for p in best) + (" share the win" if len(best) > 1 else " wins")
            lines.append(f"The game ends in round {b}: {why}. {won} with {max(scores)}.")
    return "\n".join(lines)
