"""Forum threads beside mail: reading posts and posting public reports.

    base.py       Post, the Forum interface, cursors, the hidden key marker
    folder.py     a thread kept as a local directory (the default; the demo's)
    discourse.py  a Discourse topic and private messages through the REST API
    backends.py   the forum a campaign's settings name
    shared.py     campaigns whose forum shares one bot account
    queue.py      public reports waiting to be posted, each once

`[transport.forum]` settings are read with the campaign's (pbem/state/forumconfig.py); who wrote
a post and what a public post may carry is intake's (pbem/intake/admission.py).
May import: pbem.mail, pbem.state, pbem.kit, pbem.plugins, pbem.errors.
"""
