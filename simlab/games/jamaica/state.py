"""Jamaica's game state: one flat int32 array, cheap to reset, copy and inspect.

Ships are numbered 0..5 for the players' seats and ``GHOST`` (6) for the neutral ghost ship
of the 2-player game. Layout (``SH0 + ship * SB`` starts a ship's block)::

    shared part
      S_ROUND         round number (1, 2, ...)
      S_PLAYERS       number of players
      S_CAPTAIN       seat holding the captain's compass this round
      S_DAY, S_NIGHT  the action dice as the captain placed them (day = left, night = right)
      S_END           0 running, 1 a ship reached Port Royal, 2 the round cap was hit
      S_ENDER         seat that first reached Port Royal (-1 none)
      S_GHOST         1 when the ghost ship sails
      S_DEC           kind of the decision being asked (DEC_* below), for strategies
      S_DEC_SHIP      ship the decision is for (GHOST when a player decides for it)
      S_DEC_A/B/C     context of the decision (see DEC_* below)
      S_BANK    +3    doubloons, food, cannons left in the bank (may go negative when the bank
                      is unlimited: it is always printed stock minus what is in holds)
      S_BANK_SHORT    loads that found the printed stock short
      S_TDECK_N       treasure cards left in the draw pile
      S_TDECK   +12   the treasure draw pile, top = index S_TDECK_N - 1
      S_TOWNER  +12   where treasure card k is: OWN_DECK, OWN_REMOVED, or a ship 0..6
      S_TOKEN   +50   1 while the treasure token still lies on that lair space
      S_PREV_A  +50   backward neighbours of each space (derived from the next_* tables)
      S_PREV_B  +50   second backward neighbour at a merge (-1 none)
      S_DIE1, S_DIE2  the two action dice as rolled, before the captain places them
      S_TGT_LAP +8    lap of each move target offered in ``legal`` (DEC_MOVE / DEC_GHOST / DEC_RETREAT)
      S_TGT_DONE+8    1 when that target finishes the race
      S_STACK   +128  the engine's scratch for track walks and payments (no meaning between calls)
      S_SSCRATCH+24   scratch for strategies (the engine never reads it)
    per ship block, SB entries
      B_POS           space 0..49
      B_LAP           0 on the race lap; -1 behind the start line; +1 (ghost) past Port Royal
      B_DONE          1 once the ship has finished at Port Royal
      B_HTYPE   +6    resource in each hold (R_NONE when empty); slot 5 = the 6th Hold card
      B_HN      +6    tokens in each hold
      B_DRAW    +11   action draw pile (top = index B_DRAW_N - 1)
      B_DRAW_N
      B_HAND    +6    action cards in hand (card ids 0..10)
      B_HAND_N
      B_DISC    +11   discard pile
      B_DISC_N
      B_CARD          card played this round (-1 none)
      B_COMBATS, B_WINS, B_ATTACKS   battles fought, won, started
      B_FALL_FOOD, B_FALL_GOLD       times it fell back for lack of food / gold
      B_SPENT         cannons committed to battles
      B_LAIRS         treasure cards taken from lairs
      B_FINISH_ROUND  round it reached Port Royal (0 = never)
      B_STEALS        loot taken from beaten ships (holds or cards)
"""
S_ROUND, S_PLAYERS, S_CAPTAIN, S_DAY, S_NIGHT, S_END, S_ENDER, S_GHOST = 0, 1, 2, 3, 4, 5, 6, 7
S_DEC, S_DEC_SHIP, S_DEC_A, S_DEC_B, S_DEC_C = 8, 9, 10, 11, 12
S_BANK = 13
S_BANK_SHORT = 16
S_TDECK_N = 17
S_TDECK = 18
S_TOWNER = 30
S_TOKEN = 42
S_PREV_A = 92
S_PREV_B = 142
S_DIE1, S_DIE2 = 192, 193
S_TGT_LAP = 194
S_TGT_DONE = 202
S_STACK = 210
S_SSCRATCH = 338
SH0 = 362

B_POS, B_LAP, B_DONE = 0, 1, 2
B_HTYPE = 3
B_HN = 9
B_DRAW = 15
B_DRAW_N = 26
B_HAND = 27
B_HAND_N = 33
B_DISC = 34
B_DISC_N = 45
B_CARD = 46
B_COMBATS, B_WINS, B_ATTACKS = 47, 48, 49
B_FALL_FOOD, B_FALL_GOLD = 50, 51
B_SPENT = 52
B_LAIRS = 53
B_FINISH_ROUND = 54
B_STEALS = 55
SB = 56

MAX_PLAYERS = 6

# Random streams by purpose: rows of ``play_game``'s ``streams``, named in this order in
# ``GameSpec.chance_streams``. One row per independent source of chance, so a rule, variant or
# strategy change that adds or removes draws of one kind leaves every other kind's sequence as it
# was (common random numbers). Strategies never see these rows: slot k draws from
# ``STRATEGY_STREAM + k``.
RNG_TREASURE = 0      # setup: one shuffle of all 12 treasure cards (Lady Beth then leaves it for the ghost ship)
RNG_DICE = 1          # the two action dice of each round
RNG_COMBAT = 2        # battles between players: two faces per battle, attacker's then defender's
RNG_GHOST_BATTLE = 3  # battles the ghost ship fights: their two faces, Sabre re-roll and blind steal
RNG_SABRE = 4         # Saran's Sabre re-rolls in battles between players
RNG_BLIND = 5         # which face-down card a blind steal takes, in battles between players
RNG_DECK = 6          # + seat: that seat's action deck (setup shuffle and every reshuffle)
CHANCE_STREAMS = ("treasure pile", "action dice", "combat dice", "ghost ship battles", "Saran's Sabre re-rolls",
                  "blind steals") + tuple(f"action deck of seat {s}" for s in range(MAX_PLAYERS))
GHOST = 6
N_SHIPS = 7
STATE_SIZE = SH0 + N_SHIPS * SB

OWN_DECK, OWN_REMOVED = -1, -2
END_RUNNING, END_PORT_ROYAL, END_CAP = 0, 1, 2
MAX_TARGETS = 8

# Decision kinds (state[S_DEC]) and the codes in ``legal`` for each:
# DEC_DICE     captain places the dice: code = day * 8 + night
# DEC_CARD     pick a card: code = card id 0..10 (from the hand)
# DEC_MOVE     branch choice of the seat's own move: code = destination + 64 * backward;
#              S_DEC_A = die, S_DEC_B = 1 backward; lap / finish of target i in S_TGT_LAP/S_TGT_DONE
# DEC_RETREAT  fall back for lack of S_DEC_A (resource): code = destination (first payable space)
# DEC_HOLD     hold to load into (or to empty, then load into): code = hold slot 0..5;
#              S_DEC_A = resource, S_DEC_B = amount
# DEC_PAY      which holds pay S_DEC_B of resource S_DEC_A: code 0 smallest holds first, 1 largest first
# DEC_TARGET   attacker picks the opponent on its space: code = ship 0..6
# DEC_CANNONS  cannons to commit: code = number; S_DEC_A = opponent, S_DEC_B = 1 when defending,
#              S_DEC_C = attacker's strength so far (defender only)
# DEC_SABRE    Saran's Sabre after a roll: code 0 keep, 1 re-roll; S_DEC_A = ship whose die was rolled,
#              S_DEC_B = its face (0 = star)
# DEC_LOOT     winner's loot (S_DEC_A = loser): LOOT_NONE, LOOT_HOLD + slot, LOOT_CARD + card id,
#              LOOT_BLIND (a random face-down card), LOOT_GIVE + card id (a cursed card to give)
# DEC_GHOST    captain moves the ghost: code = destination + 64 * backward
DEC_DICE, DEC_CARD, DEC_MOVE, DEC_RETREAT, DEC_HOLD, DEC_PAY, DEC_TARGET, DEC_CANNONS, DEC_SABRE, DEC_LOOT, \
    DEC_GHOST = range(1, 12)
BACKWARD_FLAG = 64
LOOT_NONE, LOOT_HOLD, LOOT_CARD, LOOT_BLIND, LOOT_GIVE = 0, 10, 20, 40, 50
MAX_CHOICES = 64
