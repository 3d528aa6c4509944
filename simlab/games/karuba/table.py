"""Karuba at the table (``simlab.core.table``): a seat's islands drawn from its observation, its
choices in words. Every island, tile shown and token taken is open in the box; only the tiles
still face down and the other seats' choices this round are hidden, and the screen reads neither.
"""
from simlab.core.table import Table

from . import step
from .components import COLOURS, COLS, ROWS
from .state import (AT_BEACH, AT_TEMPLE, B_CRYSTAL, B_EXPL, B_GOLD, B_PLACED, B_TILE, B_TREASURE, BONUS_OPEN,
                    BONUS_REMOVED, DISCARD_ONLY, MOVE_BASE, P0, PB, S_BEACH, S_BONUS, S_ROUND, S_TAKEN,
                    S_TEMPLE, S_TILE)
from .trace import BONUS_NAMES, Island, cell_name, count, tile_words


def _island(obs, seat) -> Island:
    beaches = [10 * (obs[S_BEACH + c] + 1) for c in range(4)]
    temples = [10 * (obs[S_TEMPLE + c] + 1) for c in range(4)]
    island = Island(beaches, temples)
    base = P0 + seat * PB
    island.tile = [int(t) for t in obs[base + B_TILE:base + B_TILE + 30]]
    island.treasure = [int(t) for t in obs[base + B_TREASURE:base + B_TREASURE + 30]]
    for c in range(4):
        pos = int(obs[base + B_EXPL + c])
        island.where[c] = "beach" if pos == AT_BEACH else "home" if pos == AT_TEMPLE else pos
    return island


def _tokens(values, n_players) -> tuple:
    return tuple(values[f"tokens_{n_players}p"])


def screen(obs, seat, n_players, values) -> str:
    """The round and the tile to play, every island (the seat's own first), the temples' token
    stacks, the bonus tiles, and each seat's treasure and tiles placed."""
    exits = values["tile_exits"]
    tile = int(obs[S_TILE])
    steps = bin(exits[tile - 1]).count("1")
    treasure = {1: ", a crystal on it", 2: ", a gold nugget on it"}.get(values["tile_treasure"][tile - 1], "")
    lines = [f"Round {int(obs[S_ROUND])} of at most 36: tile {tile} is revealed (exits {tile_words(tile, exits)}"
             f"{treasure}; {count(steps, 'step')} if discarded).\nPlace it on your island, or discard it to move "
             "an explorer that many steps."]
    order = [seat] + [p for p in range(n_players) if p != seat]
    pictures = [_island(obs, p).draw(exits) for p in order]
    width = len(pictures[0][0])
    lines.append("    " + "  ".join(("your island" if p == seat else f"seat {p + 1}").ljust(width) for p in order))
    ruler = [" "] * width
    for c in range(COLS):   # column numbers over each cell's centre, row numbers beside it
        ruler[3 + 3 * c + 1:3 + 3 * c + 3] = f"c{c + 1}"
    lines.append("    " + "  ".join("".join(ruler) for _ in order).rstrip())
    for i, row in enumerate(zip(*pictures)):
        r = (i - 4) // 3
        label = f"r{r + 1}" if (i - 4) % 3 == 0 and 0 <= r < ROWS else ""
        lines.append((f"{label:<4}" + "  ".join(row)).rstrip())
    stack = _tokens(values, n_players)
    lines.append("Temple tokens left, top first: " + "; ".join(
        f"{COLOURS[c]} " + (", ".join(str(v) for v in stack[int(obs[S_TAKEN + c]):]) or "none") for c in range(4)))
    if values["bonus_tiles"]:
        points = values["bonus_points"]
        words = []
        for k, name in enumerate(BONUS_NAMES):
            who = int(obs[S_BONUS + k])
            state = ("open" if who == BONUS_OPEN else "out of the game" if who == BONUS_REMOVED
                     else "yours" if who == seat else f"taken by seat {who + 1}")
            words.append(f"{name} ({points[k]}): {state}")
        lines.append("Bonus tiles: " + "; ".join(words[:2]) + ";\n             " + "; ".join(words[2:]) + ".")
    for p in order:
        base = P0 + p * PB
        crystals = int(sum(obs[base + B_CRYSTAL:base + B_CRYSTAL + 4]))
        gold = int(sum(obs[base + B_GOLD:base + B_GOLD + 4]))
        lines.append(f"{'You' if p == seat else f'Seat {p + 1}'}: {count(crystals, 'crystal')}, "
                     f"{count(gold, 'gold nugget')}, {count(int(obs[base + B_PLACED]), 'tile')} placed.")
    lines.append("Legend: B U P Y explorers (brown, blue, purple, yellow) on their beaches, b u p y their temples\n"
                 "([B] home), * crystal, $ gold, + a placed tile, . an empty cell; cells r1c1 (top left) to r5c6.")
    return "\n".join(lines)


def choice(obs, seat, code, n_players, values) -> str:
    """``place at r2c3``, ``discard, move no one``, ``discard: blue r3c1 -> r4c1 (gold)`` (what lies on
    the tile placed is said once, above the choices)."""
    code = int(code)
    if code < DISCARD_ONLY:
        return f"place at {cell_name(code)}"
    if code == DISCARD_ONLY:
        return "discard, move no one"
    colour, dest = divmod(code - MOVE_BASE, 32)
    base = P0 + seat * PB
    pos = int(obs[base + B_EXPL + colour])
    start = "beach" if pos == AT_BEACH else cell_name(pos)
    if dest == AT_TEMPLE:
        return f"discard: {COLOURS[colour]} {start} -> temple"
    got = {1: " (crystal)", 2: " (gold)"}.get(int(obs[base + B_TREASURE + dest]), "")
    return f"discard: {COLOURS[colour]} {start} -> {cell_name(dest)}{got}"


def seen(events, viewer):
    """Every Karuba event is open: the choices of a round are carried out, and logged, together."""
    return events


TABLE = Table(begin=step.begin, finish=step.finish, screen=screen, choice=choice, seen=seen)
