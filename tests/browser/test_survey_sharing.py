"""The survey's shards (tests/browser/survey.py) under pytest-xdist: two workers that ask at once
share the pages, each shard is collected exactly once, and both get every page."""

import json
import multiprocessing
import time
from pathlib import Path

import survey


def _worker(shared: str, log: str, out: str) -> None:
    def collect(browser, site_url, paths):
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(paths) + "\n")
        time.sleep(0.05)
        return {p: {"desktop": {}, "phone": {}} for p in paths}

    survey.collect = collect
    survey.pages = lambda site: [f"page-{i}/" for i in range(20)]
    found = survey.survey(None, Path("."), "http://127.0.0.1/", Path(shared))
    Path(out).write_text(json.dumps(sorted(found)), encoding="utf-8")


def test_two_workers_collect_each_shard_once_and_both_get_every_page(tmp_path):
    log = tmp_path / "log.txt"
    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=_worker, args=(str(tmp_path), str(log), str(tmp_path / f"out-{i}.json")))
               for i in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    collected = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    every = [f"page-{i}/" for i in range(20)]
    assert len(collected) == survey.SHARDS and sorted(p for part in collected for p in part) == sorted(every)
    for i in range(2):
        assert json.loads((tmp_path / f"out-{i}.json").read_text(encoding="utf-8")) == sorted(every)
