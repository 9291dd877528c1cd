"""The cached-stage protocol every pipeline stage goes through (coursebuild.pipeline.stage):
a made entry is published whole and then a hit, a hit is checked before it is used, a corrupt
entry is made again with a warning, and a failed make publishes nothing."""

from __future__ import annotations

import json
import logging

import pytest

from coursebuild.pipeline import stage, store

KEY = "ab" * 32
PARTS = {"what": "a test entry"}
CORRUPT = "test entry of '%s' at %s is corrupt (%s); making it again"


def run(out, *, force=False, make=None, on_hit=None, calls=None):
    calls = calls if calls is not None else []

    def made(staging):
        calls.append("make")
        store.write_json(staging / "page.json", {"data": {"n": 1}})
        return {"n": 1}

    extra = {"on_hit": on_hit} if on_hit else {}
    return stage.cached(store.PAGEDATA, out, "demo", KEY, PARTS, force=force, make=make or made,
                        corrupt=CORRUPT, describe=lambda status, value, s: f"demo: made ({status})", **extra)


def test_a_made_entry_is_published_then_a_hit_and_force_makes_it_again(tmp_path, caplog):
    calls = []
    with caplog.at_level(logging.INFO, logger="tutorial_code.experiments"):
        status, entry, value = run(tmp_path, calls=calls)
    assert (status, value, calls) == ("miss", {"n": 1}, ["make"])
    assert entry == store.entry_dir(tmp_path, "demo", KEY, store.PAGEDATA)
    manifest = json.loads((entry / "manifest.json").read_text("utf-8"))
    assert manifest["key"] == KEY and manifest["key_parts"] == PARTS and "page.json" in manifest["files"]
    assert "demo: made (miss)" in caplog.text
    assert not [p for p in entry.parent.iterdir() if p.name.startswith(".staging-")]

    assert stage.is_hit(store.PAGEDATA, tmp_path, "demo", KEY)
    assert run(tmp_path, calls=calls)[::2] == ("hit", {"data": {"n": 1}}) and calls == ["make"]
    assert run(tmp_path, force=True, calls=calls)[0] == "miss" and calls == ["make", "make"]


def test_a_hit_is_checked_and_gives_what_the_check_returns(tmp_path):
    run(tmp_path)
    assert run(tmp_path, on_hit=lambda record: record["data"]["n"] + 1)[2] == 2

    def refuse(record):
        raise ValueError("out of range")

    with pytest.raises(ValueError, match="out of range"):
        run(tmp_path, on_hit=refuse)


def test_a_corrupt_entry_is_made_again_with_a_warning(tmp_path, caplog):
    entry = run(tmp_path)[1]
    (entry / "page.json").write_text("{", encoding="utf-8")
    assert not stage.is_hit(store.PAGEDATA, tmp_path, "demo", KEY)
    with caplog.at_level(logging.WARNING, logger="tutorial_code.experiments"):
        status, again, _ = run(tmp_path)
    assert status == "recomputed" and again == entry
    assert f"test entry of 'demo' at {entry} is corrupt (page.json does not match its sha256" in caplog.text
    assert stage.is_hit(store.PAGEDATA, tmp_path, "demo", KEY)


def test_a_failed_make_publishes_nothing_and_leaves_no_staging_folder(tmp_path):
    def broken(staging):
        store.write_json(staging / "page.json", {"data": {}})
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError, match="interrupted"):
        run(tmp_path, make=broken)
    parent = store.experiment_dir(tmp_path, "demo", store.PAGEDATA)
    assert list(parent.iterdir()) == []
    assert not stage.is_hit(store.PAGEDATA, tmp_path, "demo", KEY)
