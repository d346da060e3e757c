"""docs/launch-manifest.schema.json: the documented manifests satisfy it, and it agrees with
`ptxvm run`'s own reader on which keys and argument kinds exist."""
import json
import os
import pathlib
import re
import subprocess

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "launch-manifest.schema.json").read_text())
DOC = (ROOT / "docs" / "LaunchManifest.md").read_text()
EXAMPLES = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def test_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("example", EXAMPLES)
def test_documented_examples_satisfy_the_schema(example):
    jsonschema.validate(example, SCHEMA)


@pytest.mark.parametrize("bad", [
    {"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "shared_byte": 0},
    {"ptx": "k.ptx", "kernel": "k", "grid": [1, 2, 3, 4], "block": [1]},
    {"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "args": [{"s32": 3000000000}]},
    {"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "args": [{"u32": 1, "f32": 2}]},
])
def test_schema_rejects(bad):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)


def test_schema_and_reader_know_the_same_keys(tmp_path):
    """Each key and argument kind of the schema passes the reader's unknown-key check."""
    ptxvm = os.environ["PTXVM"]
    kinds = [next(iter(a["required"])) for a in SCHEMA["$defs"]["arg"]["oneOf"]]
    for key in SCHEMA["properties"]:
        m = {"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], key: None}
        r = subprocess.run([ptxvm, "run", "-"], input=json.dumps(m), capture_output=True, text=True)
        assert "unknown key" not in r.stderr, (key, r.stderr)
    for kind in kinds:
        m = {"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "args": [{kind: None}]}
        r = subprocess.run([ptxvm, "run", "-"], input=json.dumps(m), capture_output=True, text=True)
        assert f"args[0].{kind}: expected" in r.stderr, (kind, r.stderr)
    m = {"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "bogus": 1}
    r = subprocess.run([ptxvm, "run", "-"], input=json.dumps(m), capture_output=True, text=True)
    assert "unknown key 'bogus'" in r.stderr
