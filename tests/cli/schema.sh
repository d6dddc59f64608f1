#!/usr/bin/env bash
# Checks JSON reports of roofval validate against the JSON Schema of the
# report (docs/report.schema.json). Exit 0 when every file holds, 1 when one
# does not (each named, with the first error), 77 (skip) when python3 or its
# jsonschema module is missing: apt-get install python3-jsonschema.
# usage: schema.sh SCHEMA REPORT.json...
set -u
schema=$1
shift
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import jsonschema' 2>/dev/null; then
	echo "SKIP: python3-jsonschema is missing (apt-get install python3-jsonschema)"
	exit 77
fi
python3 - "$schema" "$@" <<'PY'
import json
import sys

import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema)
bad = 0
files = [p for p in sys.argv[2:]]
for path in files:
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL {path}: {e}")
        bad += 1
        continue
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        print(f"FAIL {path}: {where}: {e.message} ({len(errors)} errors)")
        bad += 1
print(f"schema: {len(files) - bad} of {len(files)} reports hold")
sys.exit(1 if bad else 0)
PY
