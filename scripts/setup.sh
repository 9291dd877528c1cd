#!/usr/bin/env bash
# Install what the course needs into ./.venv (Python 3.10+ with venv).
#   bash scripts/setup.sh          Python packages, exactly as pinned in requirements.txt, and
#                                  Debian's chromium, which prints the handouts
#   bash scripts/setup.sh --test   also the Nanum fonts for browser tests,
#                                  and TypeScript from npm (package-lock.json) for the type check;
#                                  Node.js (with npm) must be there: it also runs the JavaScript maths tests
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "" | --test) ;;
  -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown option '$1'; use no option, or --test to add what the tests need" >&2; exit 2 ;;
esac

if [ "${1:-}" = "--test" ] && ! { command -v node >/dev/null && command -v npm >/dev/null; }; then
  echo "setup.sh --test: Node.js or npm is missing. The JavaScript maths tests run in Node.js, and the" >&2
  echo "  type check installs TypeScript with npm:" >&2
  echo "  install Node.js with npm (Debian/Ubuntu: sudo apt-get install nodejs npm), then run again" >&2
  exit 1
fi

# Debian's chromium: the build prints the handouts with it (coursebuild/outputs/handout_print.py);
# the browser tests also need the Nanum fonts
debs="chromium"
[ "${1:-}" = "--test" ] && debs="chromium fonts-nanum"
# (the build takes another Chromium or Chrome it finds, such as the one on GitHub's runners;
# the browser tests take Debian's)
has_browser() { for b in chromium chromium-browser google-chrome google-chrome-stable; do command -v "$b" >/dev/null && return 0; done; return 1; }
if { [ "${1:-}" = "--test" ] && ! { command -v chromium >/dev/null && fc-list 2>/dev/null | grep -qi nanum; }; } ||
   { [ "${1:-}" != "--test" ] && ! has_browser; }; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing Debian packages $debs (the handouts; with --test, the browser tests)"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $debs >/dev/null
fi

# the JavaScript type check (tests/pages/test_javascript_types.py): TypeScript exactly as
# package-lock.json pins it, into node_modules/ (npm ci: nothing else, nothing newer)
if [ "${1:-}" = "--test" ]; then
  echo "installing TypeScript from npm as package-lock.json pins it (JavaScript type check)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi

python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
# the build machinery (scripts/coursebuild) as an editable package with its MkDocs plugin,
# `course` (pyproject.toml); tutorial_code is not installed: the build reads it from this tree,
# and a notebook kernel or a pasted snippet sees only what a fresh Colab runtime has
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
rm -f "$site/attention_course.pth"  # the path file of earlier versions of this script
