"""Rule systems: the interface (`base`, `phases`), the registry, and one package per system.

May import: pbem.mail, pbem.state and pbem.kit (the interface); a rule system imports only pbem.kit
and the interface, and no other rule system (import-linter contracts in pyproject.toml).
"""
