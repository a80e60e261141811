#!/usr/bin/python3
"""validate-json.py SCHEMA FILE...: each FILE parses as JSON and matches SCHEMA."""
import json
import sys

import jsonschema

def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8"))  # strict: invalid UTF-8 fails
        except (ValueError, UnicodeDecodeError) as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        for err in validator.iter_errors(doc):
            print(f"{path}: {'/'.join(map(str, err.absolute_path))}: {err.message}")
            bad += 1
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
