"""The real mail servers of tests/mail/conftest.py (a private Dovecot and an aiosmtpd relay on
127.0.0.1, fresh for each test that names them) for the tick's tests of broken mailboxes and
mail servers."""

from tests.mail.conftest import campaign, dovecot, passwords, relay  # noqa: F401 (fixtures, found by name)
