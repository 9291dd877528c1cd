"""The site's own JavaScript passes TypeScript's type check.

Every script under ``docs/assets/javascripts/`` starts with ``// @ts-check`` and carries JSDoc
types where inference is not enough; ``tsconfig.json`` at the repository root says which files
and which libraries (the browser's DOM, a Web Worker's globals, ES2020), and
``scripts/types/*.d.ts`` declares the globals of scripts that are not ours (Material's
``document$``, KaTeX's ``renderMathInElement``). The checker is TypeScript exactly as
``package-lock.json`` pins it, installed into ``node_modules/`` by ``scripts/setup.sh --test``
(``npm ci``); nothing is emitted, the browser runs the files as they are.
"""

import fnmatch
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
SCRIPTS = ROOT / "docs" / "assets" / "javascripts"
INSTALL = ("install it with `bash scripts/setup.sh --test`, or `npm ci --no-audit --no-fund` in the "
           "repository root (Node.js with npm; package-lock.json pins the version)")


def tsc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    if not TSC.is_file():
        pytest.fail(f"TypeScript's checker {TSC.relative_to(ROOT)} is missing: {INSTALL}")
    return subprocess.run([str(TSC), *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def errors(run: subprocess.CompletedProcess) -> list[str]:
    return [line for line in run.stdout.splitlines() if ": error TS" in line]


def test_the_checker_is_typescript_as_pinned():
    pin = json.loads((ROOT / "package.json").read_text())["devDependencies"]["typescript"]
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]["node_modules/typescript"]
    assert pin[0].isdigit() and lock["version"] == pin, (
        f"package.json pins typescript {pin!r}, package-lock.json holds {lock['version']!r}: "
        "pin one exact version and run `npm install` to write the lock")
    got = tsc("--version").stdout.strip()
    assert got == f"Version {pin}", f"node_modules has TypeScript {got!r}, the pin is {pin}: {INSTALL}"


def test_the_site_javascript_has_no_type_errors():
    run = tsc("-p", str(ROOT), "--pretty", "false")
    found = errors(run)
    assert run.returncode == 0 and not found, (
        f"tsc -p . finds {len(found)} type error(s) in the site's JavaScript "
        f"(exit {run.returncode}):\n" + (run.stdout + run.stderr).strip())


def test_every_site_script_is_checked():
    """tsconfig.json's program holds every script of docs/assets/javascripts/ but those its
    ``exclude`` names, and each of them starts with ``// @ts-check`` (so an editor, or tsc run
    on one file, checks it too)."""
    config = json.loads(tsc("-p", str(ROOT), "--showConfig").stdout)
    checked = {(ROOT / f).resolve() for f in config["files"]}
    excluded = config.get("exclude", [])
    scripts = sorted(SCRIPTS.rglob("*.js"))
    assert scripts, f"no scripts under {SCRIPTS.relative_to(ROOT)}"
    left_out, unmarked = [], []
    for path in scripts:
        name = path.relative_to(ROOT).as_posix()
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in excluded):
            continue
        if path.resolve() not in checked:
            left_out.append(name)
        elif not path.read_text(encoding="utf-8").startswith("// @ts-check\n"):
            unmarked.append(name)
    assert not left_out, f"tsconfig.json does not check {left_out}: widen its include"
    assert not unmarked, f"these scripts do not start with `// @ts-check`: {unmarked}"


def test_a_type_error_in_a_widget_fails_the_check(tmp_path):
    """The check is not vacuous: the site's scripts and configuration, copied, with one typo in a
    widget (a method CourseWidgets does not have) give an error that names the file and line."""
    shutil.copytree(SCRIPTS, tmp_path / SCRIPTS.relative_to(ROOT))
    shutil.copytree(ROOT / "scripts" / "types", tmp_path / "scripts" / "types")
    shutil.copy(ROOT / "tsconfig.json", tmp_path / "tsconfig.json")
    widget = tmp_path / SCRIPTS.relative_to(ROOT) / "widgets" / "sdpa.js"
    lines = widget.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, 1) if "CourseWidgets.register(" in line)
    lines[number - 1] = lines[number - 1].replace("CourseWidgets.register(", "CourseWidgets.registr(")
    widget.write_text("".join(lines), encoding="utf-8")
    run = tsc("-p", str(tmp_path), "--pretty", "false", cwd=tmp_path)
    found = errors(run)
    typo = [e for e in found if e.startswith(f"docs/assets/javascripts/widgets/sdpa.js({number},")]
    assert run.returncode != 0 and typo, run.stdout + run.stderr
    assert "'registr' does not exist" in typo[0], typo
