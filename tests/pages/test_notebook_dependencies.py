"""A notebook asks for package objects; what they need comes with them, once, in order.

The static check before any kernel runs: an undefined name, an import of the repository's own
packages and an experiment's code each stop the render with the notebook, cell and fix.
"""

from __future__ import annotations

import re

import pytest
import torch

from coursebuild.pages import code
from coursebuild.notebooks import dependencies as deps
from coursebuild.notebooks import build

GOOD = '# %% [markdown] lang="ko"\n# # 제목\n\n# %% [markdown] lang="en"\n# # Title\n\n'


def _render(tmp_path, body: str, lang: str = "en"):
    path = tmp_path / "lesson_01_demo.py"
    path.write_text(GOOD + body, encoding="utf-8")
    (source,) = build.sources(tmp_path)
    return build.render(source, lang)


def test_one_object_brings_everything_it_needs_once_in_dependency_order():
    lines = deps.Inliner("en").bring("models", "DecoderOnlyTransformer", "cell 1")
    text = "\n".join(lines)
    defined = re.findall(r"^(?:class|def) (\w+)", text, re.M)
    assert len(defined) == len(set(defined)), defined  # each once
    assert defined[-1] == "DecoderOnlyTransformer"
    for needed in ("check_mask", "scaled_dot_product_attention", "MultiHeadAttention", "DecoderLayer",
                   "TransformerConfig", "Embedding", "future_mask", "causal_mask"):
        assert needed in defined, needed
    # with nothing in the notebook yet, the lines run alone: imports included, order right
    namespace: dict = {}
    exec(compile(text, "<inlined>", "exec"), namespace)
    model = namespace["DecoderOnlyTransformer"](namespace["TransformerConfig"](n_layers=1))
    assert model(torch.zeros(2, 5, dtype=torch.long)).shape == (2, 5, 16)


def test_what_the_notebook_has_is_not_brought_again_and_each_is_labelled_in_its_language():
    ko = deps.Inliner("ko")
    ko.note("import math\nimport torch\nfrom torch import Tensor, nn\n")
    first = ko.bring("multihead", "MultiHeadAttention", "cell 2")
    assert not any(line.startswith(("import ", "from ")) for line in first), first  # imports present
    assert "# tutorial_code/attention.py에서 가져옴: MultiHeadAttention에 필요" in first
    again = ko.bring("layers", "EncoderLayer", "cell 3")
    assert not any("class MultiHeadAttention" in line for line in again)
    assert any(line.startswith("class PositionwiseFeedForward") for line in again)
    with pytest.raises(deps.DependencyError, match=r"already in this notebook \(cell 2\); remove this line"):
        ko.bring("attention", "check_mask", "cell 4")
    en = deps.Inliner("en").bring("masks", "causal_mask", "cell 1")
    assert en[:2] == ["import torch", "from torch import Tensor"], en[:3]


def test_a_name_imported_into_a_module_is_followed_to_its_definition():
    assert code.origin("experiments.lstm_vs_attention", "FirstCellTransformer") == ("classifiers", "FirstCellTransformer")
    assert code.source_of("experiments.lstm_vs_attention", "FirstCellTransformer") == \
        code.source_of("classifiers", "FirstCellTransformer")
    assert deps.needs("classifiers", "FirstCellTransformer").objects == [  # in order of first use
        ("position", "LearnedPositionalEmbedding"), ("layers", "EncoderLayer")]


def test_an_undefined_name_stops_the_render_with_the_cell_and_the_line_to_add(tmp_path):
    body = "# %%\nimport torch\n\n# %%\nmask = causal_mask(3)\n"
    with pytest.raises(build.NotebookError, match=re.escape(
            "lesson_01_demo.py (en), cell 4: 'causal_mask' is used but no earlier cell defines it; "
            "add the line '# [[code:masks.causal_mask]]' to that cell or an earlier one")):
        _render(tmp_path, body)
    # a later cell does not count; an unknown name gets the plain fix
    body = "# %%\nprint(later)\n\n# %%\nlater = 1\n"
    with pytest.raises(build.NotebookError, match=r"cell 3: 'later' is used .* define or import it in an earlier cell"):
        _render(tmp_path, body, "ko")
    ok = _render(tmp_path, "# %%\nimport torch\n# [[code:masks.causal_mask]]\nmask = causal_mask(3)\n")
    assert "def causal_mask" in ok.cells[-1].source


def test_importing_the_repository_or_an_experiment_stops_the_render(tmp_path):
    for line in ("from tutorial_code.masks import causal_mask", "import coursebuild.code"):
        with pytest.raises(build.NotebookError, match=r"cell 3: imports (tutorial_code|coursebuild).*Colab"):
            _render(tmp_path, f"# %%\n{line}\n")
    with pytest.raises(build.NotebookError, match=r"line 1: .*not from an experiment's module"):
        _render(tmp_path, "# %%\n# [[code:experiments.cost.Config]]\n")


def test_a_notebook_name_that_clashes_with_a_needed_object_is_refused(tmp_path):
    body = "# %%\ndef check_mask(mask, shape):\n    pass\n# [[code:attention.scaled_dot_product_attention]]\n"
    with pytest.raises(build.NotebookError, match=r"defines 'check_mask' itself.*attention\.check_mask"):
        _render(tmp_path, body)


def test_module_attribute_uses_and_renamed_imports_are_refused_with_the_fix(tmp_path, monkeypatch):
    package = tmp_path / "tutorial_code"
    package.mkdir()
    (package / "masks.py").write_text("def causal_mask(n):\n    return n\n")
    (package / "uses_module.py").write_text("from . import masks\n\ndef f(n):\n    return masks.causal_mask(n)\n")
    (package / "renames.py").write_text("from .masks import causal_mask as cm\n\ndef g(n):\n    return cm(n)\n")
    monkeypatch.setattr(code, "PACKAGE", package)
    with pytest.raises(deps.DependencyError, match=r"uses the module 'masks'.*import what it uses by name"):
        deps.needs("uses_module", "f")
    with pytest.raises(deps.DependencyError, match=r"imports causal_mask as cm.*without 'as'"):
        deps.needs("renames", "g")


def test_notebook_sources_include_only_teaching_modules():
    """No include line of the lessons names an experiment's (or a notebook's) module."""
    for source in build.sources():
        text = source.path.read_text(encoding="utf-8")
        for target in re.findall(r"^# \[\[code:([\w.]+)\]\]$", text, re.M):
            module, name = code.resolve(target)
            assert module.split(".")[0] not in deps.NOT_TEACHING, (source.path.name, target)
