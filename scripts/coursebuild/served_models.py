"""Trained models in the site: the files an experiment exported, served for the page widgets.

``scripts/models_hook.py`` re-exports the ``on_*`` functions below. The page data of an
experiment listed in :data:`MODELS` writes its model into its page-data entry
(``files/<name>.json`` manifest, ``files/<name>.bin`` weights, ``files/<name>-reference.json``
PyTorch's outputs; see ``tutorial_code/experiments/pagedata/model_export.py``); this module
adds those files once, shared by both languages, at ``assets/generated/models/<name>/``.

A page asks for a model with ``data-model="<name>"`` on an HTML element; the build adds
``data-model-url`` with the manifest's URL relative to that page (so the site works under any
``site_url`` and language prefix). An unknown name fails the build with the names that exist.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from .paths import DEFAULT_OUT
from .pipeline.errors import ExperimentError
from .pipeline.runner import Report, load_report
from .workarounds import AFTER_I18N

MODEL_ROOT = "assets/generated/models"
# experiment → the files of its model in its page-data entry's files/ folder (manifest first)
MODELS = {"reversal": ("reversal.json", "reversal.bin", "reversal-reference.json"),
          "translation": ("translation.json", "translation.bin", "translation-reference.json")}
ATTRIBUTE = re.compile(r'data-model="(?P<name>[^"]*)"')


def model_uri(name: str, filename: str | None = None) -> str:
    """Site path of a model's file (its manifest by default)."""
    return f"{MODEL_ROOT}/{name}/{filename or MODELS[name][0]}"


def model_files(report: Report) -> dict[str, Path]:
    """{site path: file in the cache} of every exported model in ``report``."""
    found = {}
    for name, filenames in MODELS.items():
        try:
            outcome = report[name]
        except KeyError:
            continue  # not run in this build (TUTORIAL_EXPERIMENTS=...); pages then cannot use it
        for filename in filenames:
            path = outcome.pagedata / "files" / filename if outcome.pagedata else None
            if path is None or not path.is_file():
                raise PluginError(f"models: {path or filename} is missing; tutorial_code/experiments/"
                                  f"pagedata/{name}.py must export it (model_export.export_and_check)")
            found[model_uri(name, filename)] = path
    return found


def _report() -> Report:
    # the experiments hook has already run the pipeline in on_pre_build; this only reads it
    out = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)
    try:
        return load_report(out)
    except ExperimentError as exc:
        raise PluginError(f"models: {exc}") from exc


@event_priority(AFTER_I18N)  # static-i18n rebuilds every File earlier; generated ones come after
def on_files(files, config):
    for uri, path in model_files(_report()).items():
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def add_model_urls(html: str, page_url: str, files) -> str:
    """Give every ``data-model="name"`` a ``data-model-url`` relative to the page at ``page_url``."""
    def replace(m: re.Match) -> str:
        name = m["name"]
        if name not in MODELS or files.get_file_from_path(model_uri(name)) is None:
            served = sorted(n for n in MODELS if files.get_file_from_path(model_uri(n)) is not None)
            raise KeyError(f'data-model="{name}" names no model in this build; models: '
                           f"{', '.join(served) or '(none)'} (scripts/coursebuild/served_models.py MODELS)")
        url = get_relative_url(model_uri(name), page_url)
        return f'{m[0]} data-model-url="{url}"'
    return ATTRIBUTE.sub(replace, html)


def on_page_content(html, page, config, files):
    try:
        return add_model_urls(html, page.url, files)
    except KeyError as exc:
        raise PluginError(f"{page.file.src_uri}: {exc.args[0]}") from None
