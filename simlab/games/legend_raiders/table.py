"""Legend Raiders at the table (``simlab.core.table``): a seat's observation drawn in text, its choices in
words, and the trace as a seat may know it.

Hidden (rules doc section 1): the expedition cards a player took from the deck, face down, and the
stack and deck orders. The screen reads only the observation, where those are HIDDEN: another seat's
blind cards are counted, never named; the cards it took from the face-up row everyone saw.
"""
import numpy as np

from simlab.core.play import EV_STANDINGS
from simlab.core.table import UNSEEN, Table

from . import step
from .components import (EFFECTS, KIND_DICE, KIND_DISCOVERY, KIND_MISSION, N_COLUMNS, N_SLOTS, SYMBOLS, TOOL_LETTER,
                         TOOLS)
from .rules import EV_TAKE_CARD
from .state import (B_BOARD, B_COIN_PTS, B_DIE_PTS, B_DONE, B_EXP_PTS, B_HAND, B_HAND_RND, B_NDONE, B_NHAND,
                    B_SLOT, B_TOOLS, B_TORCH, CHANGE_DIE, COMPLETE, DISCARD_TILE, EXTRA_DICE, HIDDEN, KEEP_ROLL,
                    NO_CARD, NO_EXTRA, NO_TORCH, P0, PB, PH_ACTION, PH_COMPLETE, PH_DIE_CARD, PH_EXTRA_DICE, PH_SLOT,
                    PH_TILE_LIMIT, PH_VARIANT_CARD, PLACE_SLOT, PREPARE, RETURN_TOOL, ST_CHANGE_LATER,
                    STOP, S_BAG, S_CARDS_TURN, S_COIN_BONUS, S_CUR, S_DECK_N, S_DISC_N, S_FACE, S_FACEUP, S_HQ_TILE,
                    S_HQ_TOOLS, S_NEW_TILE, S_PHASE, S_REMOVED_N, S_ROLL, S_ROUND, S_STACK_N, S_STAGE, S_TOP_SYMBOL,
                    S_TRIGGER, TAKE_BLIND, TAKE_FACEUP, TAKE_NOTHING, USE_CARD)
from .trace import VARIANT_EFFECT, Names, plural, tools_words

BLIND = TAKE_BLIND - TAKE_FACEUP       # EV_TAKE_CARD's third field for a card drawn from the deck
DIE_EFFECT = ("draw a tool", "everyone flips their torch", "+1 point per discovery this turn")


def _tools(obs, seat):
    base = P0 + seat * PB + B_TOOLS
    return [int(obs[base + t]) for t in range(4)]


def _cost(values, tile):
    return list(values["tile_cost"][4 * tile:4 * tile + 4])


def _payable(obs, seat, values, tile) -> bool:
    """With tools alone, or with the lit torch standing in for one of them."""
    have, cost = _tools(obs, seat), _cost(values, tile)
    short = sum(max(0, c - h) for c, h in zip(cost, have))
    return short == 0 or (short == 1 and obs[P0 + seat * PB + B_TORCH] == 1)


def _hand(obs, seat):
    """(card, or HIDDEN where drawn unseen by another seat; round taken) for each card the seat holds."""
    base = P0 + seat * PB
    return [(int(obs[base + B_HAND + h]), int(obs[base + B_HAND_RND + h])) for h in range(int(obs[base + B_NHAND]))]


def _symbols(obs, seat, values):
    """Symbols missions count: the completed tiles and the discovery cards held (which only the seat sees)."""
    base = P0 + seat * PB
    counts = [0] * values["symbols"]
    for i in range(int(obs[base + B_NDONE])):
        counts[values["tile_symbol"][int(obs[base + B_DONE + i])]] += 1
    ns = values["symbols"]
    for card, _ in _hand(obs, seat):
        if card != HIDDEN and values["card_kind"][card] == KIND_DISCOVERY:
            for s in range(ns):
                counts[s] += values["card_need"][ns * card + s]
    return counts


def _missing(values, card, counts) -> str:
    """What the mission still lacks of the symbols counted (empty when it is met)."""
    ns = values["symbols"]
    need = values["card_need"][ns * card:ns * card + ns]
    short = "".join(SYMBOLS[s] * max(0, n - c) for s, (c, n) in enumerate(zip(counts, need)))
    different = values["card_different"][card] - sum(c > 0 for c in counts)
    words = [f"still needs {short}"] if short else []
    if different > 0:
        words.append(f"{different} more different symbols")
    return ", ".join(words)


def _dice_usable_now(obs, values, got_round) -> bool:
    same_turn = values["variant_same_turn"] if values["variant"] == "no_dice" else values["dice_card_same_turn"]
    return bool(same_turn) or got_round < obs[S_ROUND]


def _own_cards(obs, seat, values, names) -> str:
    counts = _symbols(obs, seat, values)
    words = []
    for card, got in _hand(obs, seat):
        kind = values["card_kind"][card]
        note = ""
        if kind == KIND_MISSION:
            note = f" - {_missing(values, card, counts) or 'met now'}"
        elif kind == KIND_DICE:
            note = " - usable now" if _dice_usable_now(obs, values, got) else f" - usable from round {got + 1}"
        words.append(names.card(card) + note)
    return "; ".join(words) or "none"


def _others_cards(obs, seat, names) -> str:
    """How many the seat drew blind (unseen), and the cards it took from the face-up row."""
    hand = _hand(obs, seat)
    blind = sum(1 for card, _ in hand if card == HIDDEN)
    seen = "; ".join(names.card(card) for card, _ in hand if card != HIDDEN)
    if not hand:
        return "none"
    if not blind:
        return f"all taken face up: {seen}"
    return f"{blind} drawn unseen" + (f"; taken face up: {seen}" if seen else "")


def _seat_lines(obs, seat, viewer, values, names):
    base = P0 + seat * PB
    board = int(obs[base + B_BOARD])
    pts = int(obs[base + B_COIN_PTS] + obs[base + B_EXP_PTS] + obs[base + B_DIE_PTS])
    who = f"You (seat {seat + 1})" if seat == viewer else f"Seat {seat + 1}"
    parts = f" (coins {int(obs[base + B_COIN_PTS])}, expertise {int(obs[base + B_EXP_PTS])}, coin effect " \
        f"{int(obs[base + B_DIE_PTS])})" if pts else ""
    lines = [f"{who}: character board {board + 1} (expertise {names.expertise(board)}), {plural(pts, 'point')}{parts}, "
             f"torch {'lit' if obs[base + B_TORCH] == 1 else 'unlit'}"]
    tools = _tools(obs, seat)
    lines.append(f"    backpack ({sum(tools)} of {values['tool_limit']}): {tools_words(tools)}")
    sites = []
    for s in range(N_SLOTS):
        tile = int(obs[base + B_SLOT + s])
        if tile < 0:
            sites.append(f"{s + 1} empty ({plural(values['slot_coins'][board * N_SLOTS + s], 'coin')} showing)")
        else:
            ready = ", payable" if seat == viewer and _payable(obs, seat, values, tile) else ""
            sites.append(f"{s + 1} {names.tile_names[tile]} (costs {names.cost(tile)}{ready})")
    lines.append("    dig sites: " + " | ".join(sites))
    done = [int(obs[base + B_DONE + i]) for i in range(int(obs[base + B_NDONE]))]
    spaces = values["map_spaces"]
    map_coins = sum(values["map_coins"][board * spaces + k] for k in range(len(done), spaces))
    lines.append(f"    map: {plural(len(done), 'discovery', 'discoveries')}"
                 + (": " + ", ".join(names.tile_names[t] for t in done) if done else "")
                 + (f"; {plural(map_coins, 'coin')} still showing on the map" if map_coins else ""))
    hand = _hand(obs, seat)
    cards = _own_cards(obs, seat, values, names) if seat == viewer else _others_cards(obs, seat, names)
    lines.append(f"    expedition cards ({len(hand)}): {cards}")
    return lines


def _pending(obs, seat, values, names) -> str:
    """What the seat must decide now, in the rules' words."""
    if obs[S_CUR] != seat:
        return f"Seat {int(obs[S_CUR]) + 1} is deciding."
    phase = obs[S_PHASE]
    face = int(obs[S_FACE])
    if phase == PH_DIE_CARD:
        when = "after your expedition card" if obs[S_STAGE] == ST_CHANGE_LATER else "after the roll"
        return (f"Your decision ({when}): keep the {EFFECTS[face]} face, or discard a dice card to turn the die "
                f"to another face.")
    if phase == PH_VARIANT_CARD:
        return "Your decision: discard a dice card for an effect, or keep your dice cards and go on to your action."
    if phase == PH_ACTION:
        return ("Your decision: your action. Prepare an expedition (take a whole HQ column: its tile and tools), "
                "or go on an expedition (take one expedition card, then complete discoveries).")
    if phase == PH_EXTRA_DICE:
        return "Your decision: you may also take a face-up dice card."
    if phase == PH_COMPLETE:
        bonus = int(obs[S_COIN_BONUS])
        extra = f" (the coin effect adds {bonus} point{'s' if bonus > 1 else ''} per discovery this turn)" \
            if bonus else ""
        return f"Your decision: complete a discovery by paying its tools, or end your turn{extra}."
    new = int(obs[S_NEW_TILE])
    if phase == PH_TILE_LIMIT:
        return (f"Your decision: your dig sites are full ({values['tile_limit']} tiles) and you take "
                f"{names.tile(new)}: discard a held tile (the new one takes its site) or the new one.")
    if phase == PH_SLOT:
        return f"Your decision: choose the dig site for the new {names.tile(new)}."
    over = sum(_tools(obs, seat)) - values["tool_limit"]
    return (f"Your decision: your backpack is over its limit of {values['tool_limit']} tools: return one to the "
            f"bag ({plural(over, 'tool')} to return).")


def screen(obs, seat, n_players, values) -> str:
    """The round and the die, the HQ, the stack and the card row, every seat's board (yours first, with
    your cards in full; of the others, their cards taken face up and a count of the rest), the
    decision pending."""
    names = Names(values)
    rnd = int(obs[S_ROUND])
    trigger = int(obs[S_TRIGGER])
    if trigger > 0:
        end = f"seat {trigger} completed discovery {values['end_discoveries']}: this is the last round"
    elif trigger < 0:
        end = f"the {'tile stack' if trigger == -1 else 'expedition deck'} ran out: this is the last round"
    else:
        end = f"a player's discovery number {values['end_discoveries']} ends the game after that round"
    cur = int(obs[S_CUR])
    lines = [f"Legend Raiders, round {rnd} ({end}). You are seat {seat + 1} of {n_players}; "
             + ("your turn." if cur == seat else f"seat {cur + 1}'s turn.")]
    face, roll = int(obs[S_FACE]), int(obs[S_ROLL])
    if values["variant"] == "no_dice":
        bonus = int(obs[S_COIN_BONUS])
        lines.append(f"No die (no-dice variant): {plural(int(obs[S_CARDS_TURN]), 'dice card')} used this turn"
                     + (f"; +{bonus} point{'s' if bonus > 1 else ''} per discovery this turn." if bonus else "."))
    elif roll >= 0:
        now = "" if face == roll else f"; turned by a dice card to the {EFFECTS[face]} face ({DIE_EFFECT[face]})"
        lines.append(f"Die: rolled the {EFFECTS[roll]} face ({DIE_EFFECT[roll]}){now}.")
    lines.append("HQ (prepare takes a whole column):")
    for col in range(N_COLUMNS):
        tile = int(obs[S_HQ_TILE + col])
        tools = [int(obs[S_HQ_TOOLS + col * 4 + t]) for t in range(4)]
        if tile < 0 and not sum(tools):
            lines.append(f"    column {col + 1}: empty")
        else:
            what = names.tile(tile) if tile >= 0 else "no tile"
            lines.append(f"    column {col + 1}: {what} with {tools_words(tools)}")
    top = int(obs[S_TOP_SYMBOL])
    lines.append(f"Tile stack: {int(obs[S_STACK_N])} face down" + (f", the top shows symbol {SYMBOLS[top]}"
                                                                   if top >= 0 else "")
                 + f"; discard pile: {plural(int(obs[S_DISC_N]), 'tile')}.")
    row = []
    for k in range(values["faceup_cards"]):
        card = int(obs[S_FACEUP + k])
        row.append(f"[{k + 1}] {names.card(card) if card >= 0 else 'empty'}")
    removed = int(obs[S_REMOVED_N])
    lines.append("Expedition cards face up: " + "  ".join(row) + f"; deck: {int(obs[S_DECK_N])} face down"
                 + (f"; {plural(removed, 'used dice card')} out of the game" if removed else "") + ".")
    bag = [int(obs[S_BAG + t]) for t in range(4)]
    lines.append(f"Bag: {tools_words(bag)}.")
    for p in [seat] + [p for p in range(n_players) if p != seat]:
        lines.extend(_seat_lines(obs, p, seat, values, names))
    lines.append("Tiles are named by back symbol and number (B3); costs in tool letters: C compass, M map, "
                 "S shovel, R rope. A mission names the symbols it needs (completed tiles and discovery cards count).")
    lines.append(_pending(obs, seat, values, names))
    return "\n".join(lines)


def _completion(obs, seat, values, names, slot, pay) -> str:
    """``complete B3 from dig site 1: pay C+R and the torch for the M, scores 4 points`` (the points it scores
    at once: the coins showing once the tile has left its site, and the expertise tools paid)."""
    base = P0 + seat * PB
    board = int(obs[base + B_BOARD])
    tile = int(obs[base + B_SLOT + slot])
    cost = _cost(values, tile)
    if pay != NO_TORCH:
        cost[pay] -= 1
    paid = "+".join(TOOL_LETTER[t] for t in range(4) for _ in range(cost[t])) or "nothing"
    torch = f" and the torch for the {TOOL_LETTER[pay]}" if pay != NO_TORCH else ""
    k = values["expertise_tools"]
    expertise = sum(cost[t] for t in values["expertise"][k * board:k * board + k]) * values["expertise_points"]
    coins = sum(values["slot_coins"][board * N_SLOTS + s] for s in range(N_SLOTS)
                if s == slot or obs[base + B_SLOT + s] < 0)
    spaces = values["map_spaces"]
    coins += sum(values["map_coins"][board * spaces + m] for m in range(int(obs[base + B_NDONE]) + 1, spaces))
    return (f"complete {names.tile_names[tile]} from dig site {slot + 1}: pay {paid}{torch}, "
            f"scores {plural(coins + expertise, 'point')}")


def choice(obs, seat, code, n_players, values) -> str:
    """``prepare: take HQ column 2 (tile B3 costing C+M+R, 1 compass, 1 map)``, ``expedition: take face-up
    card 1, mission AB (3 VP)``, ``complete B3 from dig site 1: pay C+R and the torch for the M, scores 4
    points``, ..."""
    code = int(code)
    names = Names(values)
    if PREPARE <= code < TAKE_FACEUP:
        col = code - PREPARE
        tile = int(obs[S_HQ_TILE + col])
        tools = tools_words([int(obs[S_HQ_TOOLS + col * 4 + t]) for t in range(4)])
        what = f"tile {names.tile_names[tile]} costing {names.cost(tile)}, " if tile >= 0 else "no tile, "
        return f"prepare: take HQ column {col + 1} ({what}{tools})"
    if TAKE_FACEUP <= code < TAKE_BLIND:
        k = code - TAKE_FACEUP
        return f"expedition: take face-up card {k + 1}, {names.card(int(obs[S_FACEUP + k]))}"
    if code == TAKE_BLIND:
        return f"expedition: draw the deck's top card, seen only by you ({int(obs[S_DECK_N])} in the deck)"
    if code == TAKE_NOTHING:
        return "expedition: no card is left to take; go on to complete discoveries"
    if code == STOP:
        return "end the turn (complete nothing more)"
    if COMPLETE <= code < KEEP_ROLL:
        slot, pay = divmod(code - COMPLETE, 5)
        return _completion(obs, seat, values, names, slot, pay)
    if code == KEEP_ROLL:
        return f"keep the {EFFECTS[int(obs[S_FACE])]} face"
    if CHANGE_DIE <= code < RETURN_TOOL:
        e = code - CHANGE_DIE
        return f"discard a dice card: turn the die to the {EFFECTS[e]} face ({DIE_EFFECT[e]})"
    if RETURN_TOOL <= code < DISCARD_TILE:
        return f"return a {TOOLS[code - RETURN_TOOL]} to the bag"
    if DISCARD_TILE <= code < PLACE_SLOT:
        s = code - DISCARD_TILE
        new = names.tile_names[int(obs[S_NEW_TILE])]
        if s == N_SLOTS:
            return f"discard the new tile {new}"
        old = int(obs[P0 + seat * PB + B_SLOT + s])
        return f"discard {names.tile_names[old]} from dig site {s + 1}; the new {new} takes its place"
    if PLACE_SLOT <= code < USE_CARD:
        s = code - PLACE_SLOT
        board = int(obs[P0 + seat * PB + B_BOARD])
        covered = values["slot_coins"][board * N_SLOTS + s]
        return f"put {names.tile_names[int(obs[S_NEW_TILE])]} on dig site {s + 1} (covers {plural(covered, 'coin')})"
    if USE_CARD <= code < NO_CARD:
        return f"discard a dice card into the deck: {VARIANT_EFFECT[code - USE_CARD].replace('their own', 'your')}"
    if code == NO_CARD:
        return "keep your dice cards: go on to your action"
    if EXTRA_DICE <= code < NO_EXTRA:
        return f"also take the face-up dice card at place {code - EXTRA_DICE + 1}"
    if code == NO_EXTRA:
        return "take no extra dice card"
    raise ValueError(f"not a Legend Raiders choice code: {code}")


def seen(events, viewer):
    """A card drawn from the deck is named only to its taker (to the others: a card, face down), and the
    standings after a round, which score every held card as if the game ended, show only the viewer's
    own total: the others' count their face-down cards. Every other event is open at the table."""
    out = np.array(events, copy=True)
    blind = (out[:, 0] == EV_TAKE_CARD) & (out[:, 1] != viewer) & (out[:, 3] == BLIND) & (out[:, 2] >= 0)
    out[blind, 2] = UNSEEN
    standings = out[:, 0] == EV_STANDINGS
    for p in range(out.shape[1] - 2):
        if p != viewer:
            out[standings, 2 + p] = UNSEEN
    return out


TABLE = Table(begin=step.begin, finish=step.finish, screen=screen, choice=choice, seen=seen)
