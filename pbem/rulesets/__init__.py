"""Rule systems: one package each, registered by name in `pbem.rulesets.registry`."""
