"""The campaign's files: settings (campaign.toml), state and auth, the atomic store and lock,
schedule and time zones, credentials, settings checks, the shared site settings (pbem.toml).

May import: pbem.kit, pbem.plugins, pbem.errors. A rule system's verdict on settings is asked
through the plugin registry (`Ruleset.settings_problems`), never by importing rule systems.
"""
