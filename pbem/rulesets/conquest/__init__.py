"""Campaigns of Conquest (Warmaster, after Mighty Empires): rule code, clause prefix COC.

Layout, and who calls what:

    model.py      the vocabulary every module shares: empires, tiles, buildings,
                  treasuries, EP, battles, setups, reported results, EP awards,
                  sieges, Naval Advantage, the round and its window (TOML round trip)
    tiles.py      the hex map: terrain, cities, castles, mines, ports, objectives, sea
    rules.py      typed access to `rules/conquest.toml` (+ campaign overrides)
    setup.py      window S: capital picks (COC-SET)
    order.py      step 0: empire sizes, tie-breaks, ascending order (COC-ORD)
    events.py     step A.1: event picks and their immediate effects (COC-EVT)
    revenue.py    step A.2: mines, exhaustion (COC-REV)
    challenges.py step A.3: challenges, Diplomacy, teams, break-ups (COC-CHL)
    spending.py   step D: claim, conquer, siege, build, replace, raid, plunder,
                  carry-over, victory checks (COC-SPD, COC-BLD, COC-WIN, COC-GEN-9)
    battles.py, results.py, siege.py, naval.py, abstract.py, briefing.py
                  steps B and C: battle size, gold, team shares, army bonuses,
                  briefings, EP per result, All or Nothing, beaten opponents,
                  siege assaults, Naval Advantage, abstract resolution
                  (COC-BAT, COC-RES, COC-SIE, COC-NAV, COC-GAB, COC-ABR)
    parse.py      the order lines of every window, with line errors
    reporting.py  report contexts (public round report, private reports)
    windows.py    the windows S, 1, 2, 3, 4 and over as phases: who owes, how
                  lines read, when a window may close, its help and GM verbs
    steps.py      how a window closes: its step (0, A, B, C, D), then the next
                  window through the round's cycle (COC-TRN)
    position.py   a campaign's state from a position written by hand (`pbem import`,
                  docs/positions/conquest.md)
    ruleset.py    what holds whatever the window: the stored state, the map and
                  rule book, acknowledgement lines, status, standings

`steps.py` is the only module that knows the window sequence; it calls the
step functions in order and each step takes the state plus what it needs
(rules, map, dice, submissions) and mutates or returns model objects.
"""
