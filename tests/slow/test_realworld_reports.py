"""The real-report corpus (``benchmarks/reports/``): a fixed subset of its development half.

The labels are checked again by running the files under JAX (a bug file shows its recorded
outcome at a marked line, its fix runs clean), and jaxlint's recall per category and its silence
on the fix files are asserted at or above what ``benchmarks/realworld.py`` measured on the same
subset (``ci-subset.json``): a change may raise them, never lower them.  The whole corpus and the
test half are scored by ``realworld.py`` itself."""

import json
import os
import sys

import pytest

from clirun import ROOT
REPORTS = os.path.join(ROOT, "benchmarks", "reports")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
sys.path.insert(0, REPORTS)

import label  # noqa: E402
import realworld  # noqa: E402

with open(os.path.join(REPORTS, "manifest.json")) as _fh:
    MANIFEST = json.load(_fh)
with open(os.path.join(REPORTS, "ci-subset.json")) as _fh:
    SUBSET = json.load(_fh)
CASES = {c["case"]: c for c in MANIFEST["cases"]}
PICKED = [CASES[name] for name in SUBSET["cases"]]


def test_the_subset_is_of_the_development_half_and_of_every_category():
    assert len(PICKED) >= 20
    assert {c["split"] for c in PICKED} == {"dev"}
    assert {c["category"] for c in PICKED} == set("ABCR")


def test_the_manifest_lists_every_case_file_it_kept_or_dropped():
    named = {c["bug"] for c in MANIFEST["cases"]} | {c["fix"] for c in MANIFEST["cases"]}
    dropped = {d["case"] for d in MANIFEST["dropped"]}
    for path in label.case_files():
        rel = os.path.relpath(path, REPORTS)
        assert rel in named or rel[: -len("_bug.py")] in dropped, f"{rel} is neither kept nor dropped in manifest.json"


def test_a_run_under_checking_leaks_that_does_not_finish_is_no_leak():
    clean = {"error": None, "output": "1", "eager_output": "1"}
    assert label.outcome({**clean, "leak_error": "UnexpectedTracerError"})["outcome"] == "leaks"
    for stopped in ("Timeout", "WorkerError", "SystemExit"):
        assert label.outcome({**clean, "leak_error": stopped})["outcome"] == "failed"


@pytest.mark.slow
def test_labels_come_from_running_the_files():
    paths = [os.path.join(REPORTS, c[kind]) for c in PICKED for kind in ("bug", "fix")]
    seen = label.run(paths, jobs=2, progress=False)
    for c in PICKED:
        bug, fix = (os.path.join(REPORTS, c[k]) for k in ("bug", "fix"))
        assert label.verdict("bug", label.header(bug), seen[bug]) is None, (c["case"], seen[bug])
        assert seen[bug]["outcome"] == c["label"]["outcome"], (c["case"], seen[bug])
        assert label.verdict("fix", label.header(fix), seen[fix]) is None, (c["case"], seen[fix])


@pytest.mark.slow
def test_recall_and_silence_do_not_fall():
    # Every rule, preview included, as realworld.py --write-ci-subset measured the floors.
    scored = realworld.score_reports("dev", preview=True, jobs=1, manifest={**MANIFEST, "cases": PICKED})
    for category, floor in SUBSET["recall_at_least"].items():
        assert scored["recall"][category] >= floor, (category, scored["recall"], scored["misses_by_sink"])
    assert scored["negatives_flagged"] <= SUBSET["negatives_flagged_at_most"], scored["flagged"]
