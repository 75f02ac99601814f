//! One SVG badge per implementation, drawn in the shields.io style (a grey label, a coloured
//! value) by this crate, so that a README can show a conformance score without a service: the
//! value names each profile checked, the level its score was earned at, and the score.

use std::fmt::Write as _;

use super::model::{Column, Matrix};

/// A badge file: its name and its SVG text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// A file name made of the implementation's name and version (`example-gate-0.2.0.svg`).
    pub file: String,
    /// The SVG.
    pub svg: String,
}

/// One badge per implementation (name and version), in column order.
pub fn badges(m: &Matrix) -> Vec<Badge> {
    let mut groups: Vec<(&str, &str, Vec<&Column>)> = Vec::new();
    for c in &m.columns {
        match groups
            .iter_mut()
            .find(|(n, v, _)| *n == c.name && *v == c.version)
        {
            Some((_, _, cs)) => cs.push(c),
            None => groups.push((&c.name, &c.version, vec![c])),
        }
    }
    let mut taken: Vec<String> = Vec::new();
    groups
        .into_iter()
        .map(|(name, version, columns)| {
            let value: Vec<String> = columns
                .iter()
                .map(|c| format!("{} ({}) {}", c.profile, c.level, c.score.percent()))
                .collect();
            // The colour of the lowest score: a badge does not hide a failing profile.
            let lowest = columns
                .iter()
                .filter_map(|c| c.score.ratio())
                .fold(None, |a: Option<f64>, r| Some(a.map_or(r, |a| a.min(r))));
            let mut file = slug(&format!("{name} {version}"));
            let base = file.clone();
            let mut n = 1;
            while taken.contains(&file) {
                n += 1;
                file = format!("{base}-{n}");
            }
            taken.push(file.clone());
            Badge {
                file: format!("{file}.svg"),
                svg: svg(
                    &format!("autoreview {name}"),
                    &value.join(" · "),
                    colour(lowest),
                ),
            }
        })
        .collect()
}

/// A file name part: ASCII letters and digits kept (lower case), dots kept between them, anything
/// else one `-`; at most 80 characters; `implementation` when nothing is left.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || (c == '.' && !out.is_empty() && !out.ends_with(['-', '.']))
        {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 80 {
            break;
        }
    }
    let out = out.trim_end_matches(['-', '.']).to_owned();
    if out.is_empty() {
        "implementation".to_owned()
    } else {
        out
    }
}

/// The shields.io colour for a score: bright green only without a failure.
fn colour(ratio: Option<f64>) -> &'static str {
    match ratio {
        None => "#9f9f9f",
        Some(r) if r >= 1.0 => "#4c1",
        Some(r) if r >= 0.9 => "#97ca00",
        Some(r) if r >= 0.75 => "#dfb317",
        Some(r) if r >= 0.5 => "#fe7d37",
        Some(_) => "#e05d44",
    }
}

/// The width of `s` in Verdana 11px, near enough for a badge (the text is fitted to it exactly
/// with `textLength`).
fn width(s: &str) -> u32 {
    let tenths: u32 = s
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '!' | '|' | '\'' | ' ' => 35,
            'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '-' => 50,
            'm' | 'w' | 'M' | 'W' | '%' => 105,
            'A'..='Z' => 80,
            _ => 70,
        })
        .sum();
    tenths.div_ceil(10) + 10
}

/// XML text for content or a quoted attribute.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters XML 1.0 forbids, and other controls, as a visible replacement.
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A flat shields-style badge: `label` on grey, `value` on `colour`.
pub fn svg(label: &str, value: &str, colour: &str) -> String {
    let (lw, vw) = (width(label), width(value));
    let total = lw + vw;
    let (label, value) = (xml(label), xml(value));
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" aria-label="{label}: {value}"><title>{label}: {value}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{vw}" height="20" fill="{colour}"/><rect width="{total}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="{lx}" y="15" fill="#010101" fill-opacity=".3" textLength="{lt}" lengthAdjust="spacingAndGlyphs">{label}</text><text x="{lx}" y="14" textLength="{lt}" lengthAdjust="spacingAndGlyphs">{label}</text><text x="{vx}" y="15" fill="#010101" fill-opacity=".3" textLength="{vt}" lengthAdjust="spacingAndGlyphs">{value}</text><text x="{vx}" y="14" textLength="{vt}" lengthAdjust="spacingAndGlyphs">{value}</text></g></svg>"##,
        lx = lw / 2,
        vx = lw + vw / 2,
        lt = lw - 10,
        vt = vw - 10,
    );
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A badge is well-formed XML with the texts it was given, whatever they hold.
    #[test]
    fn a_badge_is_xml_with_its_texts() {
        let hostile = "gate <x> & \"q\" 'a' \u{0}\u{1b}[31m ]]>";
        let text = svg(
            hostile,
            "baseline (full) 100.0% · resilient (effects) 6.4%",
            "#4c1",
        );
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(texts.len(), 4);
        assert_eq!(texts[1], "gate <x> & \"q\" 'a' \u{fffd}\u{fffd}[31m ]]>");
        assert_eq!(
            texts[3],
            "baseline (full) 100.0% · resilient (effects) 6.4%"
        );
        let w: u32 = root.attribute("width").unwrap().parse().unwrap();
        assert_eq!(
            w,
            width(hostile) + width("baseline (full) 100.0% · resilient (effects) 6.4%")
        );
    }

    #[test]
    fn file_names_are_plain() {
        assert_eq!(slug("example-gate 0.2.0"), "example-gate-0.2.0");
        assert_eq!(
            slug("@deepseek-ai/dsh-experimental-auto-review (model) 0.2.1-rc.3"),
            "deepseek-ai-dsh-experimental-auto-review-model-0.2.1-rc.3"
        );
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("…"), "implementation");
        assert!(slug(&"a".repeat(500)).len() <= 80);
    }

    #[test]
    fn only_a_run_without_failure_is_bright_green() {
        assert_eq!(colour(Some(1.0)), "#4c1");
        assert_eq!(colour(Some(0.999)), "#97ca00");
        assert_eq!(colour(Some(0.1)), "#e05d44");
        assert_eq!(colour(None), "#9f9f9f");
    }
}
