"""One Loot Island game narrated in plain words from the kernel's event log.

Map cards are written ``A7`` (colour A, value 7), ``B*`` a wild; symbols follow in brackets:
``[+1]`` counts as 2 cards, ``[draw]``, ``[cube-]`` discard a curse cube, ``[chest]``.
Treasures are written ``#16 money bag (12 gold, curse 4)``. A hand the reader may not see (``table.seen``
sets its cards UNSEEN) is written ``(hidden)``.
"""
from simlab.core.play import EV_STANDINGS, standings_words
from simlab.core.table import UNSEEN
from .board import (CW_B4, CW_BOTTOM, CW_ISLET_MOVE, CW_PLAY, CW_TOP, EV_A1_DRAW, EV_A2_REVEAL, EV_B10_DISCARD, EV_CARD,
                    EV_CLEANUP, EV_COMPASS, EV_CROWNS, EV_DECKOUT, EV_EFFECT, EV_ELIM, EV_EVENT, EV_EXPLORE, EV_FINAL,
                    EV_HAND, EV_HEALER, EV_ISLET, EV_ISLET_FLIP, EV_ISLET_RESULT, EV_PASS, EV_PLAY, EV_REFILL, EV_ROUND,
                    EV_SCORE, EV_SETUP, EV_SHIP, EV_TAKE, FX_A3, FX_B8, FX_COPY_DISCARD, FX_COPY_DRAW, FX_DISCARD,
                    FX_DRAW, FX_ONE_CURSE, SHIP_B1, SHIP_B2, SHIP_ISLET, TAKE_A2, TAKE_ISLET)
from .components import COLOUR_NAMES, EVENT_NAMES, ISLET_ACTION_NAMES, PER_COLOUR, TYPE_NAMES
from .state import SKIP, SUPPLY

EVENT_TEXT = {
    "A1": "each player may draw 2 extra map cards for 2 curse cubes",
    "A2": "one treasure per player lies face up; a player who passes must take and keep one",
    "A3": "using an islet costs 1 curse cube",
    "A4": "big loot reveals 1 treasure fewer, small loot 1 more",
    "B1": "the ship moves again",
    "B2": "the ship turns 180 degrees",
    "B3": "a random islet is turned face down",
    "B4": "at most 2 compasses per player on the island",
    "B5": "hands are refilled to 1 card fewer",
    "B6": "'discard 1 cube' cards discard 2",
    "B7": "an islet costs 1 extra map card",
    "B8": "whoever takes the start tile gives every other player 2 curse cubes",
    "B9": "an islet costs only 1 map card, but its user must pass at once",
    "B10": "after the loot, players at a small loot may discard up to 2 cubes",
    "B11": "big and small loot reveal 1 treasure fewer",
    "B12": "the landing with FEWER cards is the big loot",
    "B13": "the bottom islet moves a compass to the top, and loot goes from the top down",
    "B14": "the explored coast and the next one are both explored",
}
SYMBOL_TAG = {0: "", 1: "[+1]", 2: "[draw]", 3: "[cube-]", 4: "[chest]"}


def card_name(m: int, values) -> str:
    slot = m % PER_COLOUR
    v = values["map_values"][slot]
    return f"{COLOUR_NAMES[m // PER_COLOUR]}{v if v else '*'}{SYMBOL_TAG[values['map_symbols'][slot]]}"


def treasure_name(t: int, values) -> str:
    ty = values["treasure_type"][t]
    text = f"#{t + 1} {TYPE_NAMES[ty]} ({values['treasure_gold'][t]} gold, curse {values['treasure_curse'][t]}"
    if values["treasure_crosses"][t]:
        text += f", {values['treasure_crosses'][t]} crosses"
    if values["treasure_book"][t]:
        text += f", x{values['treasure_book'][t]}"
    if values["treasure_crossed"][t]:
        text += f", {values['treasure_crossed'][t]} crossed cubes"
    return text + ")"


def landing_name(landing: int) -> str:
    return f"landing {landing // 2 + 1}{'ab'[landing % 2]}"


def narrate(events, n_players, values, seat_labels, every=1) -> str:
    lines = []
    allen = False
    scored = False   # the end steps have run: the next standings are the final scores

    def who(a):
        if allen and a == n_players:
            return "Allen"
        return f"Seat {a + 1} ({seat_labels[a]})"

    def hand_text(masks):
        cards = []
        for c, mask in enumerate(masks):
            for slot in range(PER_COLOUR):
                if mask >> slot & 1:
                    cards.append(card_name(c * PER_COLOUR + slot, values))
        return " ".join(cards) if cards else "(empty)"

    for ev in events:
        kind, a, b, c, d, e, f, g = (int(x) for x in ev[:8])
        if kind == EV_SETUP:
            allen = bool(b)
            extra = " with Allen, the open third player" if allen else ""
            lines.append(f"Setup: {a} players{extra}. The ship sits at corner {c} facing "
                         f"{'clockwise' if d > 0 else 'counter-clockwise'}; {who(e)} holds the start tile.")
        elif kind == EV_HAND:
            lines.append(f"  {who(a)} holds: {'(hidden)' if b == UNSEEN else hand_text((b, c, d, e))}")
        elif kind == EV_ROUND:
            lines.append("")
            ev_text = f"event {EVENT_NAMES[e]} ({EVENT_TEXT[EVENT_NAMES[e]]})" if e >= 0 else "no event"
            lines.append(f"=== Round {a}: the ship at corner {b} points at coast {d + 1} "
                         f"(landings {d + 1}a, {d + 1}b); {ev_text}.")
        elif kind == EV_EVENT:
            lines.append(f"  Event {EVENT_NAMES[a]} is revealed for round {b}.")
        elif kind == EV_SHIP:
            why = {SHIP_B1: " (event B1)", SHIP_B2: " and turns around (event B2)", SHIP_ISLET: " (islet)"}.get(c, "")
            lines.append(f"  The ship moves to corner {a}{why}; it now points at coast {d + 1}.")
        elif kind == EV_ISLET_FLIP:
            lines.append(f"  Islet T{a + 1} is turned face down (event B3).")
        elif kind == EV_A1_DRAW:
            lines.append(f"  {who(a)} draws 2 extra cards and takes 2 curse cubes (A1).")
        elif kind == EV_A2_REVEAL:
            lines.append(f"  Face up for passers (A2): {treasure_name(a, values)}.")
        elif kind == EV_REFILL:
            if b < 0:
                lines.append(f"  Allen discards his hand and gets {c} new cards face up.")
            else:
                lines.append(f"  {who(a)} discards {b} card(s) and draws {c}.")
        elif kind == EV_PLAY:
            whose = "" if a == b else " Allen's cards"
            lines.append(f"  {who(a)} plays{whose} {e} card(s) of colour {COLOUR_NAMES[d]} at {landing_name(c)}:")
        elif kind == EV_CARD:
            where = "at the front (a 1 before higher cards)" if d else f"at the end (column value now {e})"
            lines.append(f"    {card_name(c, values)} goes {where}.")
        elif kind == EV_COMPASS:
            src = "from the supply" if c == SUPPLY else (f"moved from {landing_name(c)}" if c >= 0 else "")
            if d == CW_PLAY:
                lines.append(f"    {who(a)}'s compass goes on top at {landing_name(b)} {src}.")
            elif d == CW_ISLET_MOVE:
                lines.append(f"    {who(a)}'s compass goes to {landing_name(b)} {src} (islet).")
            elif d == CW_BOTTOM:
                lines.append(f"    {who(a)}'s compass moves to the bottom at {landing_name(b)}.")
            elif d == CW_TOP:
                lines.append(f"    {who(a)}'s compass moves to the top at {landing_name(b)} (event B13).")
            elif d == CW_B4:
                lines.append(f"  {who(a)} takes a compass back from {landing_name(b)} (event B4).")
        elif kind == EV_EFFECT:
            if a == FX_ONE_CURSE:
                lines.append("    A 1 placed normally: every player takes 1 curse cube.")
            elif a == FX_DRAW:
                lines.append(f"    {who(b)} draws {c} card(s) (draw symbol).")
            elif a == FX_DISCARD:
                lines.append(f"    {who(b)} discards {c} curse cube(s) (symbol).")
            elif a == FX_COPY_DRAW:
                lines.append(f"    {who(b)} copies a draw effect with the front 1 and draws {c}.")
            elif a == FX_COPY_DISCARD:
                lines.append(f"    {who(b)} copies a discard effect with the front 1 and sheds {c} cube(s).")
            elif a == FX_B8:
                lines.append(f"    Every other player takes {c} curse cubes (event B8).")
            elif a == FX_A3:
                lines.append(f"    {who(b)} takes 1 curse cube for using an islet (A3).")
        elif kind == EV_ISLET:
            whose = "" if a == b else " with Allen's cards (paid from his hand)"
            act = ISLET_ACTION_NAMES[d]
            if d in (0, 3):
                act = act.replace("curse cubes", f"{e} curse cubes").replace("2 map", f"{e} map")
            lines.append(f"  {who(a)} uses islet T{c + 1}{whose}: {act}.")
        elif kind == EV_ISLET_RESULT:
            if b in (1, 2) and c == SKIP:
                lines.append("    ... but leaves its compasses where they are (islet only blocked).")
            elif b in (4, 5) and c == 0:
                lines.append("    ... but does not carry the action out (islet only blocked).")
            elif b == 0:
                lines.append(f"    {who(a)} sheds {c} curse cube(s)." if not (allen and a == n_players) else
                             "    Allen has no cubes to shed.")
            elif b == 3:
                lines.append(f"    {who(a)} draws {c} card(s)." if not (allen and a == n_players) else
                             "    Allen never draws in phase 2.")
        elif kind == EV_PASS:
            took = ", takes the start tile" if b else ""
            lines.append(f"  {who(a)} passes{took} ({c} card(s) kept face down).")
        elif kind == EV_EXPLORE:
            if b == 0:
                lines.append(f"  {landing_name(a)}: {c} card(s) counted, not enough - no loot.")
            else:
                size = "BIG" if b == 1 else "small"
                lines.append(f"  {landing_name(a)}: {size} loot, {c} cards counted, {d} chest(s), {e} compass(es): "
                             f"{f} treasure(s) revealed.")
        elif kind == EV_TAKE:
            src = {TAKE_ISLET: " from the islet", TAKE_A2: " (A2, must keep)"}.get(e, "")
            verb = "keeps" if c else "discards"
            cubes = "" if (allen and a == n_players) else f" - {d} curse cube(s) now"
            lines.append(f"    {who(a)} takes {treasure_name(b, values)}{src} and {verb} it{cubes}.")
        elif kind == EV_B10_DISCARD:
            lines.append(f"    {who(a)} sheds {b} cube(s) (event B10).")
        elif kind == EV_CLEANUP:
            lines.append(f"  Coast {a + 1} is cleared: compasses go home, its cards are discarded.")
        elif kind == EV_DECKOUT:
            lines.append("  The treasure deck has run dry: the game jumps to its end.")
        elif kind == EV_FINAL:
            lines.append("")
            lines.append("=== Final exploration: every remaining landing with enough cards is a small loot.")
        elif kind == EV_ELIM:
            why = f"with {c} curse cubes" if b == 1 else f"by the healer fee (result {c})"
            lines.append(f"  {who(a)} is eliminated {why}.")
        elif kind == EV_HEALER:
            lines.append(f"  {who(a)} ({d} cubes) takes healer {b + 1}: fee {c}.")
        elif kind == EV_CROWNS:
            scored = True
            crosses = [a, b, c, d, e][:n_players + (1 if allen else 0)]
            lines.append(f"  Crown crosses (seats{', Allen' if allen else ''}): {crosses}.")
        elif kind == EV_STANDINGS:
            when = "the end steps" if scored else f"round {a} (if the game ended now, each taking the cheapest healer)"
            lines.append(standings_words(ev, n_players, when))
        elif kind == EV_SCORE:
            if b:
                lines.append(f"  {who(a)}: eliminated ({'curses' if b == 1 else 'healer fee'}), ranked last.")
            else:
                lines.append(f"  {who(a)}: treasure {c} - healer {d} = {e} gold.")
    return "\n".join(lines)
