"""JSON values as JavaScript writes them (AR-REVIEW-5, AR-RES-NORM-1), numbers checked against
spec/fixtures/js-numbers.jsonl, which Node wrote."""

import json
import struct
import unittest

import kit_path

from autoreview_kit.jsvalues import js_json, js_number, js_string


class Numbers(unittest.TestCase):
    def test_every_number_of_the_fixture_is_written_as_node_wrote_it(self):
        checked = 0
        with open(kit_path.REPO / "spec" / "fixtures" / "js-numbers.jsonl", encoding="utf-8") as fixture:
            for line in fixture:
                entry = json.loads(line)
                if "bits" not in entry:
                    continue
                x = struct.unpack(">d", bytes.fromhex(entry["bits"]))[0]
                self.assertEqual(js_number(x), entry["string"], entry["bits"])
                self.assertEqual(js_json(x), entry["json"], entry["bits"])
                checked += 1
        self.assertGreater(checked, 10_000)

    def test_a_json_float_without_fraction_is_an_integer(self):
        self.assertEqual((js_number(1.0), js_number(1e21), js_number(-0.0), js_number(1e-7)), ("1", "1e+21", "0", "1e-7"))


class Strings(unittest.TestCase):
    def test_string_conversion_is_javascripts(self):
        self.assertEqual(js_string({"message": "x"}), "[object Object]")
        self.assertEqual(js_string([1, None, [2, [3]], "a", True]), "1,,2,3,a,true")
        self.assertEqual((js_string(None), js_string(False), js_string("s")), ("null", "false", "s"))

    def test_stringify_orders_array_index_names_first(self):
        self.assertEqual(js_json({"b": 1, "10": 2, "2": 3, "01": 4}), '{"2":3,"10":2,"b":1,"01":4}')

    def test_stringify_escapes_controls_and_lone_surrogates_only(self):
        self.assertEqual(js_json("é\n\x01\ud800\u2028"), '"é\\n\\u0001\\ud800\u2028"')


if __name__ == "__main__":
    unittest.main()
