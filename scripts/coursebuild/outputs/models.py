"""Trained models in the site: the files an experiment exported, served for the page widgets.

The course plugin calls :func:`add_files` and :func:`page_model_urls`. The page data of an
experiment listed in :data:`MODELS` writes its model into its page-data entry
(``files/<name>.json`` manifest, ``files/<name>.bin`` weights, ``files/<name>-reference.json``
PyTorch's outputs; see ``tutorial_code/experiments/pagedata/model_export.py``); this module
adds those files once, shared by both languages, at ``assets/generated/models/<name>/``.

A page asks for a model with ``data-model="<name>"`` on an HTML element; the build adds
``data-model-url`` with the manifest's URL relative to that page (so the site works under any
``site_url`` and language prefix). An unknown name fails the build with the names that exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from ..pipeline.runner import Report

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


def add_files(files, config, report: Report):
    """The exported models of this build's ``report`` as files of the site (once each)."""
    for uri, path in model_files(report).items():
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
                           f"{', '.join(served) or '(none)'} (scripts/coursebuild/outputs/models.py MODELS)")
        url = get_relative_url(model_uri(name), page_url)
        return f'{m[0]} data-model-url="{url}"'
    return ATTRIBUTE.sub(replace, html)


def page_model_urls(html: str, page, files) -> str:
    """:func:`add_model_urls` for ``page``; an unknown model name stops the build, naming the page."""
    try:
        return add_model_urls(html, page.url, files)
    except KeyError as exc:
        raise PluginError(f"{page.file.src_uri}: {exc.args[0]}") from None
