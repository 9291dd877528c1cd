#!/usr/bin/env bash
# Install what the course needs into ./.venv (Python 3.10+ with venv).
#   bash scripts/setup.sh          Python packages, exactly as pinned in requirements.txt
#   bash scripts/setup.sh --test   also Debian's chromium and the Nanum fonts for browser tests,
#                                  and TypeScript from npm (package-lock.json) for the type check
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "" | --test) ;;
  -h | --help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown option '$1'; use no option, or --test to add what the tests need" >&2; exit 2 ;;
esac

if [ "${1:-}" = "--test" ] && ! command -v npm >/dev/null; then
  echo "setup.sh --test: npm is missing. The JavaScript type check installs TypeScript with npm:" >&2
  echo "  install Node.js with npm (Debian/Ubuntu: sudo apt-get install nodejs npm), then run again" >&2
  exit 1
fi

if [ "${1:-}" = "--test" ] && ! { command -v chromium >/dev/null && fc-list 2>/dev/null | grep -qi nanum; }; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing Debian packages chromium and fonts-nanum (browser tests)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-nanum >/dev/null
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
