"""One Legend Raiders game narrated in plain words from the kernel's event log.

The header names the rules doc and says plainly that the component data (tiles, cards, boards,
die) is assumed placeholder data unless the run replaced it. Tiles are named by symbol and number
(``B3``) with their cost in tool letters (C compass, M map, S shovel, R rope). Events as a seat may know
them (``table.seen``) are told without the fields it may not see: another seat's card drawn from the
deck, the others' totals in the standings.
"""
from simlab.core.play import EV_STANDINGS, standings_words
from simlab.core.table import UNSEEN
from .components import EFFECTS, PARAMS, RULES_FILE, SYMBOLS, TOOL_LETTER, TOOLS
from .rules import (EV_BOARD, EV_CHANGE, EV_COIN, EV_COMPLETE, EV_DECK_OUT, EV_DECK_RESHUFFLE, EV_DIE_POINTS,
                    EV_DISCARD_TILE, EV_DRAW, EV_END, EV_EXTRA_DICE, EV_FACEUP, EV_FINAL, EV_MISSION, EV_PLACE,
                    EV_PREPARE, EV_REFILL, EV_RETURN_TOOL, EV_ROLL, EV_STACK_EMPTY, EV_TAKE_CARD, EV_TORCH_ALL,
                    EV_TRIGGER, EV_TURN, EV_VCARD)

COMPONENT_PARAMS = ("symbols", "die_faces", "tile_symbol", "tile_cost", "card_kind", "card_need", "card_different",
                    "card_points", "expertise", "slot_coins", "map_coins")
END_WHY = {1: "a player completed the 6th discovery and the round has been finished",
           2: "the tile stack ran out (empty_stack_rule=end_trigger) and the round has been finished",
           3: "the max_rounds safety stop was reached",
           4: "the expedition deck ran out (empty_deck_rule=end_trigger) and the round has been finished"}
VARIANT_EFFECT = ("draw 2 tools", "relight their own torch", "+1 per discovery this turn")


def unpack_tools(packed: int) -> list[int]:
    """Tool counts from the kernel's packing (compass in the thousands ... rope in the units)."""
    return [(packed // 10 ** (3 - t)) % 10 for t in range(4)]


def tools_words(counts) -> str:
    parts = []
    for t, k in enumerate(counts):
        if k:
            parts.append(f"{k} {TOOLS[t]}" + ("es" if k > 1 and TOOLS[t] == "compass" else "s" if k > 1 else ""))
    return ", ".join(parts) if parts else "no tools"


def plural(k: int, one: str, many: str = "") -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


class Names:
    def __init__(self, values):
        self.v = values
        sym = values["tile_symbol"]
        seen = [0] * len(SYMBOLS)
        self.tile_names = []
        for t in range(values["tiles"]):
            seen[sym[t]] += 1
            self.tile_names.append(f"{SYMBOLS[sym[t]]}{seen[sym[t]]}")

    def expertise(self, board):
        k = self.v["expertise_tools"]
        return " and ".join(TOOLS[t] for t in self.v["expertise"][k * board:k * board + k])

    def cost(self, tile):
        c = self.v["tile_cost"][4 * tile:4 * tile + 4]
        return "+".join(TOOL_LETTER[t] for t in range(4) for _ in range(c[t]))

    def tile(self, tile):
        if tile < 0:
            return "no tile (the stack is empty)"
        return f"tile {self.tile_names[tile]} (costs {self.cost(tile)})"

    def card(self, card):
        if card < 0:
            return "nothing"
        kind = self.v["card_kind"][card]
        ns = self.v["symbols"]
        need = self.v["card_need"][ns * card:ns * card + ns]
        symbols = "".join(SYMBOLS[s] * need[s] for s in range(ns))
        if kind == 0:
            different = self.v["card_different"][card]
            if different:
                symbols += (" + " if symbols else "") + f"{different} different symbols"
            return f"mission {symbols} ({self.v['card_points'][card]} VP)"
        if kind == 1:
            return f"discovery card {symbols}"
        return "dice card"


def narrate(events, n_players, values, seat_labels, every=1) -> str:
    names = Names(values)
    assumed = [p for p in COMPONENT_PARAMS if values[p] == PARAMS[p].default
               and not (p == "die_faces" and values["variant"] == "no_dice")]  # no die in the variant
    lines = [f"Legend Raiders, {n_players} players, "
             + ("no-dice variant" if values["variant"] == "no_dice" else "base game with the die")
             + f", empty_stack_rule={values['empty_stack_rule']}. Rules: {RULES_FILE}."]
    if assumed:
        lines.append("NOTE: the component data is ASSUMED, not the real game's (no public source): the placeholder "
                     "values of " + ", ".join(assumed) + " (status assumption; replace them with --set).")
    else:
        lines.append("NOTE: all component tables were replaced by the run's own values.")
    tools = [[0] * 4 for _ in range(n_players)]
    held = [[-1] * 3 for _ in range(n_players)]
    done = [0] * n_players
    points = [0] * n_players
    torch = [1] * n_players
    cards = [0] * n_players
    expertise = [""] * n_players
    rnd = 0

    def name(p):
        return f"Seat {p + 1} ({seat_labels[p]})"

    def status():
        for p in range(n_players):
            tiles = ", ".join(names.tile_names[t] for t in held[p] if t >= 0) or "none"
            lines.append(f"    {name(p)}: {plural(points[p], 'point')} so far, "
                         f"{plural(done[p], 'discovery', 'discoveries')}, dig sites [{tiles}], "
                         f"backpack [{tools_words(tools[p])}], torch {'lit' if torch[p] else 'unlit'}, "
                         f"{plural(cards[p], 'card')}")

    for ev in events:
        kind, a, b, c, d, e, f, g = (int(x) for x in ev[:8])
        if kind == EV_BOARD:
            expertise[a] = names.expertise(b)
            lines.append(f"Setup: {name(a)} takes character board {b + 1} (expertise: {expertise[a]}), torch lit.")
        elif kind == EV_REFILL:
            where = "Setup: HQ" if rnd == 0 else "    HQ"
            if b < 0 and values["hq_refill"] == "tile_needed":
                lines.append(f"{where} column {a + 1} stays empty: no tile is left to refill it "
                             f"(hq_refill=tile_needed).")
            else:
                lines.append(f"{where} column {a + 1} gets {names.tile(b)} with {tools_words(unpack_tools(c))}.")
        elif kind == EV_FACEUP:
            if rnd == 0:
                lines.append(f"Setup: face-up expedition card {a + 1}: {names.card(b)}.")
            else:
                lines.append(f"    The row is refilled: card place {a + 1} now shows {names.card(b)}.")
        elif kind == EV_TURN:
            if b != rnd:
                if rnd and every and rnd % every == 0:
                    lines.append(f"  After round {rnd}:")
                    status()
                rnd = b
                lines.append("")
                lines.append(f"Round {b}")
            lines.append(f"  {name(a)}:")
        elif kind == EV_ROLL:
            lines.append(f"    rolls the {EFFECTS[b]} face.")
        elif kind == EV_CHANGE:
            cards[a] -= 1
            lines.append(f"    discards a dice card to turn the {EFFECTS[b]} face into the {EFFECTS[c]} face.")
        elif kind == EV_DRAW:
            tools[a][b] += 1
            lines.append(f"    draws a {TOOLS[b]} from the bag.")
        elif kind == EV_TORCH_ALL:
            for p in range(n_players):
                torch[p] = (b >> p) & 1
            lit = [f"seat {p + 1}" for p in range(n_players) if torch[p]]
            lines.append("    everyone flips their torch; lit now: " + (", ".join(lit) if lit else "nobody") + ".")
        elif kind == EV_COIN:
            lines.append("    each discovery completed this turn will score 1 extra point.")
        elif kind == EV_VCARD:
            cards[a] -= 1
            if b == 1:
                torch[a] = 1
            lines.append(f"    discards a dice card (shuffled back into the deck) to {VARIANT_EFFECT[b]}.")
        elif kind == EV_PREPARE:
            got = unpack_tools(d)
            for t in range(4):
                tools[a][t] += got[t]
            lines.append(f"    prepares an expedition: takes HQ column {b + 1}, {names.tile(c)} and "
                         f"{tools_words(got)}.")
        elif kind == EV_PLACE:
            held[a][c] = b
            lines.append(f"    puts {names.tile_names[b]} on dig site {c + 1}.")
        elif kind == EV_DISCARD_TILE:
            for s in range(3):
                if held[a][s] == b:
                    held[a][s] = -1
            what = "the new tile" if c else "a held tile"
            lines.append(f"    is over the tile limit and discards {what}, {names.tile_names[b]}.")
        elif kind == EV_RETURN_TOOL:
            tools[a][b] -= 1
            lines.append(f"    is over the backpack limit and returns a {TOOLS[b]} to the bag.")
        elif kind == EV_TAKE_CARD:
            cards[a] += b >= 0 or b == UNSEEN
            how = {4: "draws the top card of the deck", 5: "finds no expedition card left to take"}.get(
                c, f"takes face-up card {c + 1}")
            secret = " (face down)" if b == UNSEEN else f" (face down: {names.card(b)})" if b >= 0 else ""
            lines.append(f"    goes on an expedition: {how}{secret}.")
        elif kind == EV_DECK_OUT:
            if b:
                lines.append("    The expedition deck has run out: under empty_deck_rule=end_trigger the end is "
                             "triggered, the round is played to its end.")
            else:
                lines.append("    The expedition deck has run out: face-up places emptied from now on stay empty.")
        elif kind == EV_DECK_RESHUFFLE:
            lines.append(f"    The expedition deck is empty: the {plural(b, 'used dice card')} that left the game "
                         f"{'is' if b == 1 else 'are'} shuffled into a new deck (empty_deck_rule=reshuffle).")
        elif kind == EV_EXTRA_DICE:
            cards[a] += 1
            lines.append(f"    also takes the face-up {names.card(b)} (variant_extra_dice_card).")
        elif kind == EV_COMPLETE:
            tile, slot, pay, coins, exp_pts, n_done = b, c, d, e, f, g
            cost = list(values["tile_cost"][4 * tile:4 * tile + 4])
            if pay < 4:
                cost[pay] -= 1
                torch[a] = 0
            for t in range(4):
                tools[a][t] -= cost[t]
            held[a][slot] = -1
            done[a] = n_done
            points[a] += coins + exp_pts
            wild = f" and the lit torch for a {TOOLS[pay]} (now unlit)" if pay < 4 else ""
            map_note = f" on map space {n_done}" if n_done <= values["map_spaces"] else " beyond the map"
            lines.append(f"    completes {names.tile_names[tile]} from dig site {slot + 1}, paying "
                         f"{tools_words(cost)}{wild}; it goes face down{map_note}: {plural(coins, 'coin')} showing"
                         f" + {exp_pts} expertise ({expertise[a]}) = {plural(coins + exp_pts, 'point')} "
                         f"[{plural(n_done, 'discovery', 'discoveries')}].")
        elif kind == EV_DIE_POINTS:
            points[a] += b
            lines.append(f"    the coin effect pays {b} point{'s' if b != 1 else ''} for {c} "
                         f"discover{'ies' if c != 1 else 'y'} this turn.")
        elif kind == EV_TRIGGER:
            lines.append(f"    *** {name(a)} has completed discovery number {b}: the end is triggered, the round "
                         f"is played to its end so everyone has the same number of turns.")
        elif kind == EV_STACK_EMPTY:
            if b == 1:
                lines.append(f"    The tile stack is empty: the {plural(c, 'discarded tile')} "
                             f"{'is' if c == 1 else 'are'} shuffled into a new stack.")
            elif b == 2:
                lines.append("    The tile stack is empty: under empty_stack_rule=end_trigger the end is triggered.")
            else:
                lines.append("    The tile stack is empty: the column gets tools only.")
        elif kind == EV_STANDINGS:
            when = f"round {a} (missions and dice cards scored as held now)"
            if UNSEEN in ev[2:2 + n_players]:   # (Table.seen) the others' totals count cards the viewer cannot see
                scores = ", ".join(f"seat {p + 1} " + ("?" if ev[2 + p] == UNSEEN else str(int(ev[2 + p])))
                                   for p in range(n_players))
                lines.append(f"  Standings after {when}: {scores} (? counts face-down cards you cannot see).")
            else:
                lines.append(standings_words(ev, n_players, when))
        elif kind == EV_END:
            if every:
                lines.append(f"  After round {rnd}:")
                status()
            lines.append("")
            lines.append(f"The game ends after round {b}: {END_WHY.get(a, 'unknown')}.")
            lines.append("Final scoring: the expedition cards are revealed.")
        elif kind == EV_MISSION:
            lines.append(f"  {name(a)} reveals {names.card(b)}: {'met' if c else 'not met'}.")
        elif kind == EV_FINAL:
            lines.append(f"  {name(a)}: coins {b} + expertise {c} + coin effect {d} + missions {e} + dice cards {f}"
                         f" = {g} points.")
            points[a] = g
            if a == n_players - 1:   # the last seat's total closes the game (so a prefix's lines stay a prefix)
                best = max(points)
                winners = [p for p in range(n_players) if points[p] == best]
                w = winners[-1]
                tie = f" (tied with {', '.join(f'seat {p + 1}' for p in winners[:-1])}; the later seat wins)" \
                    if len(winners) > 1 else ""
                lines.append(f"{name(w)} wins with {best} points{tie}.")
    return "\n".join(lines)
