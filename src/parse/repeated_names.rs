//! Whether an object names a member twice (AR-PARSE-6), in a few bytes per member whatever the
//! object: names stay in the text and are compared decoded, byte by byte, which is comparing them
//! as UTF-16 code units (two WTF-8 strings are equal exactly when their code units are). A table
//! of text offsets finds the names worth comparing; a hash never decides that two names are equal.

use std::hash::{BuildHasher, Hasher, RandomState};

use super::json::{self, Decoded, StrAt};

/// Whether two of the names whose opening quotes are at `quotes` are the same; for a few names,
/// every pair is compared.
pub(crate) fn any_repeated(text: &str, quotes: &[usize]) -> bool {
    let b = text.as_bytes();
    quotes
        .iter()
        .enumerate()
        .any(|(i, &x)| quotes.iter().skip(i + 1).any(|&y| same(b, x, y)))
}

/// Whether the top-level object of `text`, which the reader accepted and found to have
/// `members` members, names one twice. A second reading puts the offset of each name in an
/// open-addressing table sized once for all of them, and stops at the first repeat.
pub(crate) fn any_repeated_in_text(text: &str, members: usize) -> bool {
    if u32::try_from(text.len()).is_ok() {
        table::<u32>(text, members).repeated
    } else {
        table::<usize>(text, members).repeated
    }
}

/// What reading names into a table found, and what it cost: the work stays linear in the number
/// of names whatever the text (the reader's input is hostile), which the tests hold it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cost {
    /// Whether a name repeats.
    repeated: bool,
    /// The table's slots.
    slots: usize,
    /// Slots looked at, over all names.
    probes: usize,
    /// Pairs of names compared byte by byte.
    compared: usize,
}

/// A table slot: the offset of a name's opening quote in its low bits and some bits of the name's
/// hash above them, or 0 for none (offset 0 holds the object's `{` or whitespace, never a name).
/// The hash bits spare most comparisons of names that only share a probe sequence.
trait Slot: Copy + Eq {
    const EMPTY: Self;
    const BITS: u32;
    fn new(quote: usize, tag: u64, shift: u32) -> Self;
    fn offset(self, shift: u32) -> usize;
    fn tag(self, shift: u32) -> u64;
}

impl Slot for u32 {
    const EMPTY: Self = 0;
    const BITS: u32 = u32::BITS;
    fn new(quote: usize, tag: u64, shift: u32) -> Self {
        // Only used for texts whose offsets fit (see `any_repeated_in_text`).
        u32::try_from(quote).unwrap_or(0) | (tag as u32).checked_shl(shift).unwrap_or(0)
    }
    fn offset(self, shift: u32) -> usize {
        (self & low_mask(shift) as u32) as usize
    }
    fn tag(self, shift: u32) -> u64 {
        u64::from(self.checked_shr(shift).unwrap_or(0))
    }
}

impl Slot for usize {
    const EMPTY: Self = 0;
    const BITS: u32 = usize::BITS;
    fn new(quote: usize, tag: u64, shift: u32) -> Self {
        quote | (tag as usize).checked_shl(shift).unwrap_or(0)
    }
    fn offset(self, shift: u32) -> usize {
        self & low_mask(shift) as usize
    }
    fn tag(self, shift: u32) -> u64 {
        self.checked_shr(shift).unwrap_or(0) as u64
    }
}

/// A mask of the `bits` low bits.
fn low_mask(bits: u32) -> u64 {
    1u64.checked_shl(bits).map_or(u64::MAX, |m| m - 1)
}

fn table<S: Slot>(text: &str, members: usize) -> Cost {
    let b = text.as_bytes();
    // Offsets take the low `shift` bits of a slot; the hash fills the rest.
    let shift = usize::BITS - text.len().leading_zeros();
    let tag_mask = low_mask(S::BITS.saturating_sub(shift));
    // At most two thirds full, so linear probing looks at a few slots per name on average; the
    // keys are drawn per table, so no text can choose names that all land together.
    let capacity = members + members / 2 + 1;
    let mut slots = vec![S::EMPTY; capacity];
    let keys = RandomState::new();
    let (mut probes, mut compared) = (0, 0);
    let complete = json::each_top_level_name(text, |quote| {
        let h = hash(&keys, b, quote);
        let tag = h & tag_mask;
        let mut i = home(h, capacity);
        for _ in 0..capacity {
            probes += 1;
            match slots.get_mut(i) {
                Some(slot) if *slot == S::EMPTY => {
                    *slot = S::new(quote, tag, shift);
                    return true;
                }
                Some(slot) if slot.tag(shift) == tag => {
                    compared += 1;
                    if same(b, slot.offset(shift), quote) {
                        return false;
                    }
                    i = next(i, capacity);
                }
                _ => i = next(i, capacity),
            }
        }
        // A full table: more names than the first reading counted, which cannot happen; stopping
        // reports a repeat, which fails closed.
        false
    });
    Cost {
        repeated: !complete,
        slots: capacity,
        probes,
        compared,
    }
}

/// The slot probed after slot `i`: the next one, and after the last the first.
fn next(i: usize, capacity: usize) -> usize {
    if i + 1 >= capacity { 0 } else { i + 1 }
}

/// The slot a hash starts probing at, spread over the whole table.
fn home(hash: u64, capacity: usize) -> usize {
    ((u128::from(hash) * capacity as u128) >> 64) as usize
}

/// The hash of a name's decoded bytes, fed in fixed blocks so that equal names hash alike
/// however they are escaped.
fn hash(keys: &RandomState, b: &[u8], quote: usize) -> u64 {
    let mut h = keys.build_hasher();
    let mut block = [0u8; 64];
    let mut n = 0;
    for c in Decoded::new(b, StrAt(quote)) {
        if let Some(slot) = block.get_mut(n) {
            *slot = c;
        }
        n += 1;
        if n == block.len() {
            h.write(&block);
            n = 0;
        }
    }
    h.write(block.get(..n).unwrap_or_default());
    h.finish()
}

/// Whether the names at two quotes decode to the same bytes; stops at the first difference.
fn same(b: &[u8], x: usize, y: usize) -> bool {
    x == y || Decoded::new(b, StrAt(x)).eq(Decoded::new(b, StrAt(y)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::json::TopLevel;

    fn repeated(text: &str) -> bool {
        match json::read(text) {
            Ok(TopLevel::Object(o)) => o.has_repeated_name(),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn object(names: &[String]) -> String {
        let members: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("\"{n}\":{i}"))
            .collect();
        format!("{{{}}}", members.join(","))
    }

    /// Probing runs off the end of the table and on from its first slot: with a small table and
    /// fresh hash keys each time, many of the 500 tables below put a name near the end.
    #[test]
    fn probing_wraps_around_the_end_of_the_table() {
        let names: Vec<String> = (0..6).map(|i| format!("w{i}")).collect();
        let unique = object(&names);
        let mut with_repeat = names.clone();
        with_repeat.push("w5".to_owned());
        let repeat = object(&with_repeat);
        for _ in 0..500 {
            assert!(!table::<u32>(&unique, 6).repeated);
            assert!(table::<u32>(&repeat, 7).repeated);
        }
    }

    /// However many names, the table looks at a few slots per name and compares almost no two
    /// names byte by byte: the hash spreads them over the table and its tag spares comparisons.
    /// 100 000 names also make names whose tags agree meet, which must still be compared.
    #[test]
    fn the_table_costs_a_few_probes_per_name_and_compares_names_only_when_tags_agree() {
        let n = 100_000;
        let names: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
        let text = object(&names);
        let cost = table::<u32>(&text, n);
        assert!(!cost.repeated);
        assert!(cost.slots <= 2 * n, "{cost:?}");
        assert!(cost.probes <= 3 * n, "{cost:?}");
        assert!(cost.compared <= n / 100, "{cost:?}");
    }

    /// The table with machine-word slots, which only texts of 4 GiB or more would take, finds
    /// exactly the repeats the 32-bit one finds: the slot type changes nothing but its width.
    #[test]
    fn word_slots_find_the_repeats_narrow_slots_find() {
        let mut names: Vec<String> = (0..300).map(|i| format!("n{i}")).collect();
        let unique = object(&names);
        names.push("n2\\u0039\\u0039".to_owned());
        let repeat = object(&names);
        for (text, want) in [(&unique, false), (&repeat, true)] {
            let members = text.matches(':').count();
            assert_eq!(table::<u32>(text, members).repeated, want, "u32");
            assert_eq!(table::<usize>(text, members).repeated, want, "usize");
        }
        // A slot gives back the offset and the tag it was made of.
        let shift = 12;
        let slot = <usize as Slot>::new(0x0abc, 0x5, shift);
        assert_eq!((slot.offset(shift), slot.tag(shift)), (0x0abc, 0x5));
        let slot = <u32 as Slot>::new(0x0abc, 0x5, shift);
        assert_eq!((slot.offset(shift), slot.tag(shift)), (0x0abc, 0x5));
    }

    #[test]
    fn finds_a_repeat_among_many_names_however_escaped() {
        let mut names: Vec<String> = (0..5000).map(|i| format!("k{i}")).collect();
        assert!(!repeated(&object(&names)));
        // The repeat is the last member, and escaped: it must be decoded to be found.
        names.push("k4\\u0039\\u00399".to_owned());
        assert!(repeated(&object(&names)));
        names.pop();
        names.push("\\u006b0".to_owned());
        assert!(repeated(&object(&names)));
        names.pop();
        // Differs from an earlier name only after decoding: k0 and k\u0030\u0000 are different.
        names.push("k\\u0030\\u0000".to_owned());
        assert!(!repeated(&object(&names)));
    }

    #[test]
    fn surrogates_repeat_only_as_the_same_code_units() {
        let filler: Vec<String> = (0..20).map(|i| format!("f{i}")).collect();
        for (a, b, same) in [
            ("\\ud800", "\\udc00", false),
            ("\\ud800", "\\ufffd", false),
            ("\\ud800", "\\uD800", true),
            ("\\ud800\\udc00", "𐀀", true),
            ("\\ud800\\u0041", "\\ud800A", true),
            ("\\udc00\\ud800", "\\ud800\\udc00", false),
        ] {
            let mut names = filler.clone();
            names.push(a.to_owned());
            names.extend(filler.iter().map(|f| format!("{f}x")));
            names.push(b.to_owned());
            assert_eq!(repeated(&object(&names)), same, "{a} {b}");
            assert_eq!(repeated(&object(&[a.to_owned(), b.to_owned()])), same);
        }
    }

    #[test]
    fn long_names_sharing_a_prefix_are_told_apart() {
        let prefix = "p".repeat(10_000);
        let names: Vec<String> = (0..40).map(|i| format!("{prefix}{i}")).collect();
        assert!(!repeated(&object(&names)));
        let mut with_repeat = names.clone();
        with_repeat.push(format!("{prefix}3\\u0039"));
        assert!(repeated(&object(&with_repeat)));
    }

    #[test]
    fn a_small_table_still_finds_every_repeat() {
        // Every pair of a set of names, each pair in an object of its own, with the table path
        // (more than the names the first reading keeps) and the pairwise path.
        let base = [
            "a",
            "b",
            "\\u0061",
            "ab",
            "a\\u0062",
            "",
            "\\ud800",
            "\\udbff\\udfff",
        ];
        for (i, x) in base.iter().enumerate() {
            for (j, y) in base.iter().enumerate() {
                let expected = i == j || matches!((i, j), (0, 2) | (2, 0) | (3, 4) | (4, 3));
                let pair = [x.to_string(), y.to_string()];
                assert_eq!(repeated(&object(&pair)), expected, "{x} {y}");
                let mut many: Vec<String> = (0..30).map(|k| format!("z{k}")).collect();
                many.extend(pair);
                assert_eq!(repeated(&object(&many)), expected, "{x} {y} among many");
            }
        }
    }
}
