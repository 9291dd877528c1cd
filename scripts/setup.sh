#!/usr/bin/env bash
# Install what the course needs into ./.venv (Python 3.10+ with venv).
#   bash scripts/setup.sh          Python packages, exactly as pinned in requirements.txt
#   bash scripts/setup.sh --test   also Debian's chromium, the Nanum fonts and nodejs for the tests
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "" | --test) ;;
  -h | --help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown option '$1'; use no option, or --test to add the browser-test packages" >&2; exit 2 ;;
esac

if [ "${1:-}" = "--test" ] && ! { command -v chromium >/dev/null && command -v node >/dev/null && fc-list 2>/dev/null | grep -qi nanum; }; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing Debian packages chromium, fonts-nanum (browser tests) and nodejs (the JavaScript maths tests)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-nanum nodejs >/dev/null
fi

python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
# tutorial_code (the repository root) and coursebuild (scripts/) importable from the venv:
# the MkDocs hooks, the commands in scripts/ and the tests import them without path edits.
# A process started with COURSE_ISOLATED=1 (a notebook kernel, a "Run this" snippet) does
# not see them, as in a student's fresh Colab runtime.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf 'import os, sys; os.environ.get("COURSE_ISOLATED") or sys.path.extend([%s, %s])\n' \
  "'$PWD'" "'$PWD/scripts'" > "$site/attention_course.pth"
