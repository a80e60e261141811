#!/usr/bin/python3
"""validate-json.py SCHEMA [--lines REF | --ref REF] FILE...: each FILE parses as
JSON and matches SCHEMA; with --lines, each line of each FILE is a JSON document
matching SCHEMA's REF (a JSON pointer such as #/definitions/ndjson_record); with
--ref, each FILE is one document matching REF (#/definitions/explain)."""
import json
import sys

import jsonschema

def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft7Validator.check_schema(schema)
    files = sys.argv[2:]
    ref = None
    lines = files[:1] == ["--lines"]
    if files[:1] in (["--lines"], ["--ref"]):
        ref, files = files[1], files[2:]
        # draft 7 ignores the keywords beside a $ref: the record's schema,
        # its own $refs resolved against the whole document
        schema = dict(schema, **{"$ref": ref})
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in files:
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")  # strict: invalid UTF-8 fails
            docs = [json.loads(line) for line in text.split("\n")[:-1]] if lines else [json.loads(text)]
            if lines and (not text.endswith("\n") or not docs):
                raise ValueError("JSON lines end each line with a newline, and there is at least one")
        except (ValueError, UnicodeDecodeError) as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        for n, doc in enumerate(docs, 1):
            for err in validator.iter_errors(doc):
                where = f"{path}:{n}" if lines else path
                print(f"{where}: {'/'.join(map(str, err.absolute_path))}: {err.message}")
                bad += 1
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
