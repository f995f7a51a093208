"""Mail on the wire: parsing a message into a Submission (`message`), inboxes (Maildir, .eml
folder, IMAP), outgoing transports (Maildir, SMTP), and the one builder of outgoing mail (`compose`).

May import: pbem.state, pbem.kit, pbem.plugins, pbem.errors.
"""
