"""One Karuba game narrated in plain words from the kernel's event log, islands drawn in text.

Legend: ``B U P Y`` brown/blue/purple/yellow explorers, lower-case letters their temples on the
jungle edge (``[B]`` once the explorer is home), ``*`` a crystal, ``$`` a gold nugget lying on a
tile, ``.`` an empty cell.
"""
from simlab.core.play import EV_STANDINGS, standings_words
from .components import COLOURS, COLS, ROWS, TILE_EXITS
from .rules import (EV_BONUS, EV_DISCARD, EV_END, EV_MOVE, EV_NO_GOLD, EV_PLACE, EV_SCORE, EV_SETUP,
                    EV_TEMPLE, EV_TILE)
from .state import AT_TEMPLE, BONUS_REMOVED

LETTER = "BUPY"
BONUS_NAMES = ("fastest treasure collector", "best treasure collector", "best path builder", "fastest runner")
DIR_NAMES = (("N", 1), ("E", 2), ("S", 4), ("W", 8))


def count(n: int, word: str) -> str:
    """``1 point``, ``2 points``, ``0 points``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def cell_name(cell: int) -> str:
    return f"r{cell // COLS + 1}c{cell % COLS + 1}"


def tile_words(tile: int, exits_table=TILE_EXITS) -> str:
    exits = exits_table[tile - 1]
    return "".join(d for d, bit in DIR_NAMES if exits & bit)


class Island:
    def __init__(self, beaches, temples):
        self.tile = [0] * (ROWS * COLS)
        self.treasure = [0] * (ROWS * COLS)
        self.where = ["beach"] * 4
        self.beaches, self.temples = beaches, temples

    def draw(self, exits_table) -> list[str]:
        """Each cell is 3x3 characters: the path through it, its explorer or treasure in the middle."""
        grid = [[" "] * (COLS * 3 + 6) for _ in range(ROWS * 3 + 6)]

        def put(r, c, ch):
            grid[r][c] = ch

        for cell in range(ROWS * COLS):
            r, c = 3 + 3 * (cell // COLS), 3 + 3 * (cell % COLS)
            t = self.tile[cell]
            if not t:
                put(r + 1, c + 1, ".")
                continue
            ex = exits_table[t - 1]
            centre = {1: "*", 2: "$"}.get(self.treasure[cell], "+")
            put(r + 1, c + 1, centre)
            if ex & 1:
                put(r, c + 1, "|")
            if ex & 4:
                put(r + 2, c + 1, "|")
            if ex & 2:
                put(r + 1, c + 2, "-")
            if ex & 8:
                put(r + 1, c, "-")
        for colour in range(4):
            pos = self.where[colour]
            if isinstance(pos, int):
                r, c = 3 + 3 * (pos // COLS), 3 + 3 * (pos % COLS)
                put(r + 1, c + 1, LETTER[colour])
            t = self.temples[colour] // 10 - 1
            mark = LETTER[colour] if pos == "home" else LETTER[colour].lower()
            tr, tc = (1, 3 + 3 * t + 1) if t < 6 else (3 + 3 * (t - 6) + 1, 3 + 3 * COLS + 1)
            put(tr, tc, mark)
            if pos == "home":
                put(tr, tc - 1, "[")
                put(tr, tc + 1, "]")
            b = self.beaches[colour] // 10 - 1
            br, bc = (3 + 3 * b + 1, 1) if b < 5 else (3 + 3 * ROWS + 1, 3 + 3 * (b - 5) + 1)
            put(br, bc, LETTER[colour] if pos == "beach" else "~")
        return ["".join(row) for row in grid]


def narrate(events, n_players, values, seat_labels, every=1) -> str:
    exits_table = values["tile_exits"]
    beaches, temples = [0] * 4, [0] * 4
    lines = []
    islands = None
    rnd = 0

    def name(p):
        return f"Seat {p + 1} ({seat_labels[p]})"

    def draw_all():
        pictures = [isl.draw(exits_table) for isl in islands]
        width = len(pictures[0][0])
        lines.append("  ".join(f"seat {p + 1}".ljust(width) for p in range(n_players)))
        for row in zip(*pictures):
            lines.append("  ".join(row).rstrip())

    for ev in events:
        kind, a, b, c, d, e, f = (int(x) for x in ev[:7])
        if kind == EV_SETUP:
            beaches[a], temples[a] = b, c
            lines.append(f"Setup: the {COLOURS[a]} explorer starts on beach {b}, its temple stands at jungle {c}.")
            if a == 3:
                islands = [Island(beaches, temples) for _ in range(n_players)]
        elif kind == EV_TILE:
            if rnd and (every and rnd % every == 0):
                draw_all()
            rnd = a
            lines.append("")
            lines.append(f"Round {a}: the leader reveals tile {b} (exits {tile_words(b, exits_table)}, {count(c, 'step')}).")
        elif kind == EV_PLACE:
            islands[a].tile[b] = c
            islands[a].treasure[b] = d
            extra = {1: ", a crystal goes on it", 2: ", a gold nugget goes on it"}.get(d, "")
            lines.append(f"  {name(a)} places it at {cell_name(b)}{extra}.")
        elif kind == EV_NO_GOLD:
            islands[a].treasure[b] = 0
            lines.append(f"  {name(a)} gets no gold nugget after all: {count(c, 'nugget')} left in the supply for "
                         f"{count(d, 'player')} placing it (gold_shortage={values['gold_shortage']}).")
        elif kind == EV_DISCARD:
            lines.append(f"  {name(a)} discards it and moves no one.")
        elif kind == EV_MOVE:
            isl = islands[a]
            start = f"beach {beaches[b]}" if c >= 30 else cell_name(c)
            if d == AT_TEMPLE:
                isl.where[b] = "home"
                goal = f"its temple at jungle {temples[b]}"
            else:
                isl.where[b] = d
                isl.treasure[d] = 0
                goal = cell_name(d)
            got = {1: ", collecting a crystal", 2: ", collecting a gold nugget"}.get(e, "")
            lines.append(f"  {name(a)} discards it and moves the {COLOURS[b]} explorer from {start} to {goal}{got}.")
        elif kind == EV_TEMPLE:
            comp = f" plus {count(d, 'crystal')} for the tie" if d else ""
            lines.append(f"  {name(a)} takes the {COLOURS[b]} temple token worth {count(c, 'point')}{comp}.")
        elif kind == EV_BONUS:
            if b == BONUS_REMOVED:
                lines.append(f"  {count(c, 'player')} met '{BONUS_NAMES[a]}' in the same round: the bonus tile leaves the game.")
            else:
                lines.append(f"  {name(b)} takes the bonus tile '{BONUS_NAMES[a]}'.")
        elif kind == EV_STANDINGS:
            lines.append(standings_words(ev, n_players))
        elif kind == EV_END:
            draw_all()
            why = "the last tile has been played" if a == 1 else "a player has all four explorers in their temples"
            lines.append("")
            lines.append(f"The game ends after round {b}: {why}.")
        elif kind == EV_SCORE:
            lines.append(f"  {name(a)}: {count(b, 'point')}")
    return "\n".join(lines)
