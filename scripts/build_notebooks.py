"""Build the lesson notebooks: render, execute (cached), and optionally write them out.

    python scripts/build_notebooks.py                 # every lesson, both languages, into the cache
    python scripts/build_notebooks.py --lesson 3 --lang ko --out /tmp/nb
    python scripts/build_notebooks.py --render-only --out /tmp/nb   # no execution

The MkDocs build does the same through scripts/notebooks_hook.py. The work is in
scripts/coursebuild/notebooks.py.
"""

import argparse
import sys
from pathlib import Path

from coursebuild.notebooks import build
from coursebuild.paths import REPO_ROOT as ROOT

CACHE = ROOT / ".build" / "notebooks"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lesson", type=int, action="append", help="only this lesson (repeatable)")
    ap.add_argument("--lang", choices=build.LANGS, action="append", help="only this language")
    ap.add_argument("--out", type=Path, help="also write <out>/<lang>/<name>.ipynb (executed) "
                    "and <out>/<lang>/colab/<name>.ipynb (outputs stripped)")
    ap.add_argument("--render-only", action="store_true", help="do not execute; write the rendered notebooks")
    ap.add_argument("--jobs", type=int, default=2, help="kernels at a time (default 2)")
    ap.add_argument("--cache", type=Path, default=CACHE, help=f"cache folder (default {CACHE.relative_to(ROOT)})")
    args = ap.parse_args(argv)

    known = {s.lesson for s in build.sources()}
    unknown = set(args.lesson or ()) - known
    if unknown:
        ap.error(f"no notebook for lesson {sorted(unknown)}; lessons with notebooks: {sorted(known)}")
    langs = tuple(args.lang or build.LANGS)
    only = set(args.lesson) if args.lesson else None
    try:
        if args.render_only:
            result = {(s.name, lang): build.render(s, lang) for s in build.sources()
                      if only is None or s.lesson in only for lang in langs}
        else:
            result = build.build_all(args.cache, langs, jobs=args.jobs, only=only)
    except build.NotebookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.out:
        for (name, lang), nb in result.items():
            for sub, data in (("", nb), ("colab", build.strip_outputs(nb))):
                path = args.out / lang / sub / f"{name}.ipynb"
                build.atomic_write_bytes(path, build.dumps(data))
                print(path)
    else:
        print(f"{len(result)} notebooks ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
