"""Mail and posts in: envelope, routing (own and shared mailboxes), authentication, the
per-message handler, acknowledgements, masking, journal, quarantine, throttles, forum admission.

May import: pbem.delivery and everything below it. GM mail goes on to the desk the tick hands in.
"""
