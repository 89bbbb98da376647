"""JUnit XML, in ruff's shape: one ``testsuite`` per file, one failed ``testcase`` per finding
(named by its code, with its line and column); a run without findings is one passing test case,
so a CI test-report view shows the lint ran."""

from __future__ import annotations

import os
from typing import Dict, List, Sequence
from xml.etree import ElementTree as ET

from jaxlint.findings import Finding


def _classname(path: str) -> str:
    """The path without its extension (``pkg/m.py`` -> ``pkg/m``), as ruff names the class."""
    return os.path.splitext(path)[0]


def format_junit(findings: Sequence[Finding], **_) -> str:
    suites = ET.Element("testsuites", name="jaxlint", tests=str(len(findings)), failures=str(len(findings)), errors="0")
    if not findings:
        suite = ET.SubElement(suites, "testsuite", name="jaxlint", tests="1", disabled="0", errors="0", failures="0", package="org.jaxlint")
        ET.SubElement(suite, "testcase", name="No errors found")
    by_path: Dict[str, List[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    for path, fs in by_path.items():
        n = str(len(fs))
        suite = ET.SubElement(suites, "testsuite", name=path, tests=n, disabled="0", errors="0", failures=n, package="org.jaxlint")
        for f in fs:
            case = ET.SubElement(
                suite, "testcase", name=f"org.jaxlint.{f.code}", classname=_classname(f.path), line=str(f.line), column=str(f.column)
            )
            failure = ET.SubElement(case, "failure", message=f.message)
            failure.text = f"line {f.line}, col {f.column}, {f.message}"
    ET.indent(suites, space="    ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
