"""The README's copy-paste snippets parse, and every jaxlint command in them is accepted."""

from __future__ import annotations

import configparser
import os
import re
import shlex

import pytest
import yaml

from clirun import ROOT
from jaxlint.cli import build_parser
from jaxlint.formats import FORMATTERS

with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
    README = fh.read()

BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, re.S)


def _yaml_blocks():
    return [body for lang, body in BLOCKS if lang == "yaml"]


def _commands():
    out = []
    for lang, body in BLOCKS:
        if lang not in ("yaml", "bash"):
            continue
        for line in body.splitlines():
            m = re.search(r"(?:^|run: |- |\$ )(jaxlint [^|#\n]*)", line.strip())
            if m:
                out.append(m.group(1).strip())
    return out


def test_there_are_snippets_for_every_integration():
    text = "\n".join(_yaml_blocks())
    assert "id: jaxlint" in text
    assert "github/codeql-action/upload-sarif" in text
    assert "reviewdog -f=rdjson" in text
    assert "codequality: gl-code-quality-report.json" in text
    assert "flake8 --select JAX" in README


@pytest.mark.parametrize("body", _yaml_blocks())
def test_yaml_snippets_parse(body):
    assert isinstance(yaml.safe_load(body), (dict, list))


def test_pre_commit_snippet_names_the_hook_of_the_manifest():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as fh:
        ids = {h["id"] for h in yaml.safe_load(fh)}
    (cfg,) = [yaml.safe_load(b) for b in _yaml_blocks() if "repos:" in b]
    assert {h["id"] for h in cfg["repos"][0]["hooks"]} <= ids


def test_flake8_snippet_is_valid_config():
    (ini,) = [body for lang, body in BLOCKS if lang == "ini"]
    cp = configparser.ConfigParser()
    cp.read_string(ini)
    assert cp["flake8"]["extend-ignore"].startswith("JAX")


@pytest.mark.parametrize("command", _commands())
def test_jaxlint_commands_are_accepted(command):
    argv = shlex.split(command)[1:]
    if argv[:1] == ["run"]:  # jaxlint run SCRIPT: the runtime mode's own arguments
        from jaxlint.runtime.script import build_parser as build_run_parser

        args = build_run_parser().parse_args(argv[1:])
    else:
        args = build_parser().parse_args(argv)
    assert args.format in FORMATTERS
