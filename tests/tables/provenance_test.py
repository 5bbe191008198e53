#!/usr/bin/env python3
"""bench/tables.py refuses a result file written from PROVENANCE_FROM on
that does not say what made it, and keeps the older ones as written."""

import importlib.util
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "tables", os.path.join(HERE, "..", "..", "bench", "tables.py"))
tables = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(tables)

LATE = "2026-12-03T18:30:00+00:00"


def gbench(**context):
    base = {"date": LATE, "propscaler_commit": "a125470b206d",
            "propscaler_build_type": "RelWithDebInfo", "command": "x",
            "machine": "{}", "passed": True, "failures": []}
    base.update(context)
    return {"context": {k: v for k, v in base.items() if v is not None},
            "benchmarks": []}


def harness(**fields):
    base = {"command": "x", "at": "2026-12-03T18:30:00Z", "machine": {},
            "passed": True, "failures": [],
            "binary": {"commit": "a125470b206d",
                       "build_type": "RelWithDebInfo"}}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


class ProvenanceTest(unittest.TestCase):
    def load(self, doc):
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as f:
            json.dump(doc, f)
        try:
            return tables.load(f.name)
        finally:
            os.unlink(f.name)

    def test_a_file_that_says_what_made_it_loads(self):
        self.load(gbench())
        self.load(harness())

    def test_a_late_file_without_its_verdict_is_refused(self):
        with self.assertRaisesRegex(tables.TableError, "verdict"):
            self.load(gbench(passed=None))
        with self.assertRaisesRegex(tables.TableError, "verdict"):
            self.load(harness(passed=None))

    def test_a_dirty_binary_is_refused(self):
        with self.assertRaisesRegex(tables.TableError, "built dirty"):
            self.load(gbench(propscaler_commit="a125470b206d-dirty"))
        with self.assertRaisesRegex(tables.TableError, "built dirty"):
            self.load(harness(binary={"commit": "a125470b206d-dirty",
                                      "build_type": "RelWithDebInfo"}))

    def test_no_build_type_or_command_is_refused(self):
        with self.assertRaisesRegex(tables.TableError, "build type"):
            self.load(gbench(propscaler_build_type=None))
        with self.assertRaisesRegex(tables.TableError, "command"):
            self.load(harness(command=None))

    def test_an_older_file_is_kept_as_written(self):
        self.load({"context": {"date": "2026-12-02T10:00:00+00:00"},
                   "benchmarks": []})
        self.load({"at": "2026-11-29T10:00:00Z", "figures": {}})


if __name__ == "__main__":
    unittest.main()
