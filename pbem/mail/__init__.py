"""Mail on the wire: parsing a message into a Submission (`message`), inboxes (Maildir, .eml
folder, IMAP), outgoing transports (Maildir, SMTP), and the one builder of outgoing mail (`compose`).

May import: pbem.state, pbem.kit, pbem.plugins, pbem.errors.
"""

MAIL_PROBLEM = "MAIL PROBLEM"
"""In a tick's log line about a mailbox or mail server that could not be used: counted as a
problem, and `pbem tick` exits with 3 (pbem/tick/log.py). Here, not in pbem.mail.connection, so
that an idle tick's log does not import ssl and sockets."""
