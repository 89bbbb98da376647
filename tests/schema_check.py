"""Offline JSON-schema validation against the published SARIF and rdjson schemas, stored in
tests/schemas/ (``JAXLINT_SCHEMAS`` points elsewhere)."""

from __future__ import annotations

import json
import os

import jsonschema
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource


SCHEMAS = os.environ.get("JAXLINT_SCHEMAS") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")


def _no_network(uri: str):
    # Every $ref must resolve inside the stored schemas: validation never downloads anything.
    raise NoSuchResource(ref=uri)


def validator(name: str):
    with open(os.path.join(SCHEMAS, name), encoding="utf-8") as fh:
        schema = json.load(fh)
    cls = jsonschema.validators.validator_for(schema)
    resource = Resource.from_contents(schema)  # the dialect comes from the schema's "$schema"
    registry = Registry(retrieve=_no_network).with_resource(schema.get("$id") or schema.get("id") or name, resource)
    cls.check_schema(schema)
    return cls(schema, registry=registry, format_checker=cls.FORMAT_CHECKER)


def validate(name: str, instance) -> None:
    v = validator(name)
    errors = sorted(v.iter_errors(instance), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
