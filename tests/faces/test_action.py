"""``action.yml``, the composite GitHub Action: the keys GitHub requires, inputs that exist,
no input expanded inside a shell script, and jaxlint installed from the action's own tree."""

import os
import re

import yaml

from clirun import ROOT
from jaxlint.cli import build_parser

with open(os.path.join(ROOT, "action.yml"), encoding="utf-8") as fh:
    ACTION = yaml.safe_load(fh)

STEPS = ACTION["runs"]["steps"]


def test_required_metadata():
    assert isinstance(ACTION["name"], str) and ACTION["name"]
    assert isinstance(ACTION["description"], str) and ACTION["description"]
    assert ACTION["runs"]["using"] == "composite"
    for name, spec in ACTION["inputs"].items():
        assert re.fullmatch(r"[a-z][a-z0-9-]*", name)
        assert set(spec) <= {"description", "required", "default", "deprecationMessage"}
        assert spec["description"]


def test_steps_are_well_formed():
    assert STEPS
    for step in STEPS:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            # Composite run steps must say which shell runs them.
            assert step["shell"] == "bash"
            # Inputs reach scripts through the environment, never spliced into the script.
            assert "${{" not in step["run"], step["run"]
        else:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+(/[\w.-]+)?@v\d+", step["uses"]), step["uses"]


def test_every_input_used_is_declared():
    used = set(re.findall(r"inputs\.([\w-]+)", yaml.safe_dump(ACTION["runs"])))
    assert used and used <= set(ACTION["inputs"])
    assert used == set(ACTION["inputs"])  # and every declared input does something


def test_installs_jaxlint_from_the_action_and_runs_valid_commands():
    (install,) = [s for s in STEPS if "pip install" in s.get("run", "")]
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    commands = [s["run"] for s in STEPS if "jaxlint --format" in s.get("run", "")]
    assert len(commands) == 2
    for script in commands:
        line = re.search(r"jaxlint (--format [^|\n]*)", script).group(1)
        # The shell variables stand for a file name and for lists that may be empty.
        argv = [a.replace('"$SARIF_FILE"', "out.sarif") for a in line.split() if a == '"$SARIF_FILE"' or not a.startswith("$")]
        args = build_parser().parse_args(argv)
        assert args.format in ("sarif", "rdjson") and args.exit_zero
    assert "reviewdog -f=rdjson" in commands[1]
