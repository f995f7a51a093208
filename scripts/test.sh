#!/usr/bin/env bash
# Install what the tests need (the package, pytest, aiosmtpd, Dovecot when missing) and run them all.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! { [ -x /usr/sbin/dovecot ] && [ -x /usr/lib/dovecot/imap ] && [ -x /usr/lib/dovecot/lmtp ]; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    made_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then   # keep the package from starting a system Dovecot
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; made_policy=1
    fi
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        dovecot-imapd dovecot-lmtpd openssl >/dev/null || echo "warning: Dovecot could not be installed" >&2
    [ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  fi
fi
python3 -m pip install -q -e ".[test]" 2>&1 | grep -v -i "warning" || true
set +e
python3 -m pytest "$@"
code=$?
set -e
if [ "$code" = 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi
exit "$code"
