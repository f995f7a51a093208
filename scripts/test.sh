#!/usr/bin/env bash
# Install what the tests need (the package, pytest, aiosmtpd, mypy, ruff, import-linter, and Dovecot
# when it is missing), check types (mypy --strict), lint (ruff) and layers (import-linter), and run
# the tests. The mail tests start
# their own Dovecot and SMTP relay on 127.0.0.1; they fail (never skip) when Dovecot is missing.
# Leave them out on purpose with: -m "not mailserver". The tests run on every CPU (pytest-xdist);
# pass -n 0 to run them in this one process (e.g. to use a debugger).
set -euo pipefail
cd "$(dirname "$0")/.."

dovecot_installed() {
  [ -x /usr/sbin/dovecot ] && [ -x /usr/lib/dovecot/imap ] && [ -x /usr/lib/dovecot/lmtp ]
}

if ! dovecot_installed; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    made_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then   # keep the package from starting /etc/dovecot's instance on :143/:993
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; made_policy=1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        dovecot-imapd dovecot-lmtpd openssl >/dev/null
    if [ "$made_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
    dovecot --version
  else
    echo "Dovecot is missing and cannot be installed here (needs root and apt-get):" >&2
    echo "  apt-get install dovecot-imapd dovecot-lmtpd   -- the mail tests will fail until then" >&2
  fi
fi

if ! command -v chromium >/dev/null; then   # the browser tests use Debian's headless Chromium
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "Chromium is missing and cannot be installed here (needs root and apt-get):" >&2
    echo "  apt-get install chromium   -- the browser tests will fail until then" >&2
  fi
fi

python3 -m pip install -q -e ".[test]" 2>&1 | grep -v -i "warning" || true
set +e
python3 -m mypy                          # strict, on pbem/ (settings in pyproject.toml)
typed=$?
python3 -m ruff check pbem tests bench   # the rule set chosen in pyproject.toml
linted=$?
"$(python3 -c 'import sys, os; print(os.path.dirname(sys.executable))')/lint-imports" --no-cache   # the layer contracts in pyproject.toml
layered=$?
python3 -m pytest -n auto --dist loadgroup "$@"   # loadgroup: see tests/conftest.py
code=$?
set -e
if [ "$code" = 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi
if [ "$typed" != 0 ]; then echo "mypy --strict found problems (above)" >&2; exit 1; fi
if [ "$linted" != 0 ]; then echo "ruff found problems (above)" >&2; exit 1; fi
if [ "$layered" != 0 ]; then echo "import-linter found a broken layer contract (above)" >&2; exit 1; fi
exit "$code"
