"""The kit rule systems are built from: dice and dice specs (`dice`), order reading and its
problems (`orders`), rule books (`rulebook`), player order and ranked lists (`sequential`),
rosters (`roster`), the resolver (`resolver`), TOML round trips of typed state (`tomlio`),
per-player fields (`players`) and maps (`maps`: the PlaceMap interface, its loader and MapError;
`territories` and `hexes`, the two kinds of map the kit ships). Also the template renderer
(`texts`). A rule system imports from here and `pbem.rulesets.base`.

May import: pbem.plugins, pbem.errors; never a rule system, the campaign's files or anything above.
"""
