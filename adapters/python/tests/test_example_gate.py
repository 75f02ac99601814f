"""The example gate's readers and message normalization, on texts whose verdicts the spec gives."""

import unittest

import kit_path  # noqa: F401

from autoreview_kit import RULE_VALUES, Block, Finish, js_string
from autoreview_kit.example_gate import (
    IMPLEMENTED_RULES,
    MSG,
    ReviewFailure,
    Verdict,
    classify_error_finish,
    normalize_message,
    read_strict,
    read_tolerant,
)


def text(t):
    return [Block("text", t), Finish("stop")]


class Rules(unittest.TestCase):
    def test_the_example_implements_every_value_of_every_rule(self):
        self.assertEqual({name: set(values) for name, values in IMPLEMENTED_RULES.items()}, {name: set(values) for name, values in RULE_VALUES.items()})

    def test_the_readers_turn_a_providers_message_into_text_as_failure_text_says(self):
        from autoreview_kit.example_gate import text_of

        aborted = [Finish("aborted", "UNKNOWN", {"message": "gone"})]
        for read in (read_strict, read_tolerant):
            with self.assertRaises(ReviewFailure) as caught:
                read(aborted, text_of)
            self.assertEqual(caught.exception.message, "auto-review: reviewer ended with aborted UNKNOWN: gone")
        with self.assertRaises(ReviewFailure) as caught:
            read_tolerant(aborted, js_string)
        self.assertEqual(caught.exception.message, "auto-review: reviewer ended with aborted UNKNOWN: [object Object]")


class Strict(unittest.TestCase):
    def failure(self, chunks):
        with self.assertRaises(ReviewFailure) as caught:
            read_strict(chunks)
        return caught.exception

    def test_the_six_shapes_read(self):
        self.assertEqual(read_strict(text('{"decision":"allow","risk":"low"}')), Verdict("allow"))
        self.assertEqual(read_strict(text('{"risk":"high","decision":"deny","reason":" a\\n b "}')), Verdict("deny", " a\n b "))

    def test_a_fence_is_invalid_json_worded_by_the_gate(self):
        failure = self.failure(text('```json\n{"risk":"low","decision":"allow"}\n```'))
        self.assertEqual(failure.failure_class, "protocol")
        self.assertTrue(failure.implementation_defined)

    def test_an_escaped_repeated_name_repeats(self):
        self.assertEqual(self.failure(text('{"risk":"low","decision":"deny","d\\u0065cision":"allow"}')).message, MSG.REPEATED)

    def test_nan_and_a_non_string_reason_are_refused(self):
        self.assertTrue(self.failure(text('{"risk":NaN,"decision":"deny"}')).implementation_defined)
        self.assertEqual(self.failure(text('{"risk":"high","decision":"deny","reason":42}')).message, MSG.PROTOCOL)

    def test_any_depth_is_read(self):
        deep = "[" * 10_000 + "]" * 10_000
        self.assertEqual(self.failure(text('{"risk":"low","decision":"allow","x":' + deep + "}")).message, MSG.PROTOCOL)
        self.assertEqual(self.failure(text(deep)).message, MSG.NOT_OBJECT)
        self.assertTrue(self.failure(text(deep + "]")).implementation_defined)

    def test_an_object_message_is_object_object_in_the_baseline(self):
        failure = self.failure([Finish("aborted", "UNKNOWN", {"reason": "x"})])
        self.assertEqual(
            (failure.failure_class, failure.message),
            ("aborted", "auto-review: reviewer ended with aborted UNKNOWN: [object Object]"),
        )


class Tolerant(unittest.TestCase):
    def failure(self, t):
        with self.assertRaises(ReviewFailure) as caught:
            read_tolerant(text(t))
        return caught.exception.message

    def test_a_deny_is_read_whatever_surrounds_it(self):
        self.assertEqual(read_tolerant(text('I refuse. {"risk":"high","decision":"deny"} — sorry')), Verdict("deny"))

    def test_an_allow_stands_only_alone(self):
        self.assertEqual(read_tolerant(text('\ufeff ```json\n{"risk":"low","decision":"allow"}\n```\u3000')), Verdict("allow"))
        self.assertEqual(self.failure('Sure: {"risk":"low","decision":"allow"}'), MSG.ALLOW_PROSE)
        self.assertEqual(self.failure('{"risk":"low","decision":"allow"} }'), MSG.CONFLICT)

    def test_differing_candidates_are_ambiguous_and_a_broken_one_malformed(self):
        self.assertEqual(self.failure('{"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"}'), MSG.AMBIGUOUS)
        self.assertEqual(self.failure('{"risk":"high","decision":"deny",} {"risk":"low","decision":"allow"}'), MSG.MALFORMED)
        self.assertEqual(self.failure("no object here"), MSG.NO_DECISION)

    def test_a_text_over_a_mebibyte_is_not_read(self):
        self.assertEqual(self.failure("a" * (1_048_576 - 32) + '{"risk":"high","decision":"deny"}'), MSG.TOO_LARGE)
        self.assertEqual(read_tolerant(text("a" * (1_048_576 - 33) + '{"risk":"high","decision":"deny"}')), Verdict("deny"))

    def test_a_tool_call_block_fails(self):
        with self.assertRaises(ReviewFailure) as caught:
            read_tolerant([Block("tool-call", "{}"), Finish("stop")])
        self.assertEqual(caught.exception.message, MSG.TOOL_CALL)


class Messages(unittest.TestCase):
    def test_whitespace_runs_become_one_space_and_hidden_characters_are_escaped(self):
        self.assertEqual(normalize_message(" a\t\n\u3000b\u0085c\u202ed\ufeff "), "a b\\u{0085}c\\u{202e}d\\u{feff}")

    def test_a_message_is_cut_to_400_scalar_values(self):
        self.assertEqual(normalize_message("🚀" * 400), "🚀" * 400)
        self.assertEqual(normalize_message("🚀" * 401), "🚀" * 399 + "…")

    def test_finishes_classify_by_code_then_message(self):
        self.assertEqual(classify_error_finish("HTTP_429", "socket hang up"), "quota")
        self.assertEqual(classify_error_finish("UNKNOWN", "Socket Hang Up"), "transport")
        self.assertEqual(classify_error_finish("UNKNOWN", "request timed out"), "timeout")
        self.assertEqual(classify_error_finish("UNKNOWN", "overloaded"), "provider")


if __name__ == "__main__":
    unittest.main()
