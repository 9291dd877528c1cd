"""The site's JavaScript run in Node, for numerical tests that need neither a built site nor
Chromium (the widget tests stay in the browser).

    from node_runner import run_js
    out = run_js(["maths.js"], "(x) => CourseMath.softmax(x)", [1, 2, 3])
    model = run_js(["maths.js", "transformer.js"],
                   "async (url) => (await Transformer.loadModel(url)).cfg",
                   "reversal.json", root=pagedata_files)

``scripts`` are loaded in order into one global scope, as ``<script>`` tags are (a name is
relative to ``docs/assets/javascripts/``, or an absolute path); ``function`` is the text of a
JavaScript function of one argument, sync or async, as Playwright's ``page.evaluate`` takes it,
so a check can be written once for both; ``arg`` and the result travel as JSON (typed arrays
come back as lists; NaN and infinities as None). ``root`` is the page's location: relative URLs
and ``fetch()`` of them read files under it. The shim (``node_shim.mjs``) gives the scripts
``self`` and ``location`` as a worker has them and ``fetch`` of local files, nothing else.
A script that throws raises :class:`NodeError` with Node's message and stack.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
JAVASCRIPTS = REPO / "docs" / "assets" / "javascripts"
SHIM = Path(__file__).resolve().parent / "node_shim.mjs"


class NodeError(RuntimeError):
    """The JavaScript threw, or Node could not run it."""


def node() -> str:
    """The node executable; a failure (never a skip) that says how to install it."""
    found = shutil.which("node") or shutil.which("nodejs")
    if not found:
        pytest.fail("Node.js not found: the numerical JavaScript tests need it "
                    "(bash scripts/setup.sh --test installs Debian's nodejs)", pytrace=False)
    return found


def run_js(scripts: list[str | Path], function: str, arg: Any = None, *, root: str | Path | None = None,
           timeout: float = 300) -> Any:
    """Load ``scripts``, call ``function(arg)`` in Node and return its JSON result (see the module)."""
    paths = [str(p if Path(p).is_absolute() else JAVASCRIPTS / p) for p in scripts]
    for p in paths:
        if not Path(p).is_file():
            raise FileNotFoundError(p)
    request = {"scripts": paths, "function": function, "arg": arg,
               "root": str(Path(root).resolve() if root is not None else JAVASCRIPTS)}
    done = subprocess.run([node(), str(SHIM)], input=json.dumps(request), capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise NodeError(f"node exited with {done.returncode}:\n{done.stderr[-5000:]}")
    return json.loads(done.stdout)
