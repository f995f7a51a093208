"""Forum threads beside mail: reading posts as submissions and posting public reports.

    base.py       Post, the Forum interface, cursors, the hidden key marker
    config.py     `[transport.forum]` settings and their checks
    folder.py     a thread kept as a local directory (the default; the demo's)
    discourse.py  a Discourse topic and private messages through the REST API
    backends.py   the forum a campaign's settings name
    admission.py  who wrote a post, whether it is for pbem, what a public post may carry
    queue.py      public reports waiting to be posted, each once
"""
