//! Every text a model or a person sees, as templates (spec chapter 9). This is the only place the
//! wording lives; the engine renders from here and a test proves each template appears verbatim in
//! `spec/auto-review.md`.
//!
//! An implementation may word a template in its own way ([`Wording`], read from a `--messages`
//! file by [`Wording::parse`]). The reference then renders the same situation with that wording:
//! [`worded`] runs a computation with a wording in force on its thread, and every rendering in it
//! ([`Template::fill`], [`Template::plain`], [`Template::render`]) takes the implementation's
//! template where it has one. This is the one piece of ambient state the engine reads; only the
//! conformance runner sets it, around the reference's decisions, so the engine's outcome stays a
//! function of its inputs and the wording the runner names.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

/// A message template with `<placeholder>`s, identified by its spec ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    /// The spec ID, e.g. `MSG-FINAL-DENY`.
    pub id: &'static str,
    /// The template text, exactly as in the spec.
    pub text: &'static str,
}

/// A rendered text and how much of it is normative (AR-CONV-3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// The text.
    pub text: String,
    /// `None` when the whole text is normative; otherwise the number of characters (Unicode scalar
    /// values) of the normative prefix.
    pub prefix: Option<usize>,
    /// The template IDs and clauses behind the text, in the order cited: a rendered template's ID,
    /// then those of the texts inserted into it.
    pub cited: Vec<&'static str>,
}

impl Text {
    /// A text that is normative in full.
    pub fn exact(text: impl Into<String>) -> Text {
        Text {
            text: text.into(),
            prefix: None,
            cited: Vec::new(),
        }
    }

    /// A text whose every character is implementation-defined.
    pub fn implementation_defined(text: impl Into<String>) -> Text {
        Text {
            text: text.into(),
            prefix: Some(0),
            cited: Vec::new(),
        }
    }

    /// The text, also citing `ids` (each once, after what it cites already).
    pub fn citing(mut self, ids: &[&'static str]) -> Text {
        for id in ids {
            if !self.cited.contains(id) {
                self.cited.push(id);
            }
        }
        self
    }
}

impl Template {
    /// Renders the template, replacing each `<name>` that has an argument by the argument verbatim
    /// (in one pass, so a value that itself contains `<...>` is never expanded). The result is
    /// normative up to the first argument that is not normative in full, plus that argument's own
    /// normative prefix.
    pub fn fill(&self, args: &[(&str, &Text)]) -> Text {
        let text = self.worded();
        let mut out = String::with_capacity(text.len() + 32);
        let mut prefix: Option<usize> = None;
        let mut cited = vec![self.id, self.clause()];
        let mut chars = 0usize;
        let mut rest: &str = &text;
        while let Some(open) = rest.find('<') {
            let (before, after) = rest.split_at(open);
            out.push_str(before);
            chars += before.chars().count();
            let close = after.find('>');
            let name = close.map(|c| &after[1..c]);
            match name.and_then(|n| args.iter().find(|(k, _)| *k == n)) {
                Some((_, value)) => {
                    if prefix.is_none()
                        && let Some(p) = value.prefix
                    {
                        prefix = Some(chars + p);
                    }
                    out.push_str(&value.text);
                    chars += value.text.chars().count();
                    for id in &value.cited {
                        if !cited.contains(id) {
                            cited.push(*id);
                        }
                    }
                    rest = &after[close.unwrap_or(0) + 1..];
                }
                None => {
                    out.push('<');
                    chars += 1;
                    rest = &after[1..];
                }
            }
        }
        out.push_str(rest);
        record(self.id, &out);
        Text {
            text: out,
            prefix,
            cited,
        }
    }

    /// The text of a template without placeholders as a [`Text`] that cites the template and the
    /// clause of its table.
    pub fn text(&self) -> Text {
        Text::exact(self.plain()).citing(&[self.id, self.clause()])
    }

    /// The clause whose table holds the template: AR-MSG-1 (what the model and the human see),
    /// AR-MSG-2 (reviewer failure messages), AR-MSG-5 (errors of selecting Auto), AR-JSON-RETRY-3
    /// (asking again after invalid JSON) or AR-RES-MSG-1 (the resilient profile's templates).
    pub fn clause(&self) -> &'static str {
        const RESILIENT: &[&str] = &[
            "MSG-ERR-TOOL-CALL",
            "MSG-ERR-TOO-LARGE",
            "MSG-ERR-NO-DECISION",
            "MSG-ERR-AMBIGUOUS",
            "MSG-ERR-MALFORMED",
            "MSG-ERR-CONFLICT",
            "MSG-ERR-ALLOW-PROSE",
            "MSG-ERR-DEADLINE",
            "MSG-ASK-FAILED",
            "MSG-DISPLAY-FAILED-EN",
            "MSG-DISPLAY-FAILED-ZH",
            "MSG-ASK-COMBINED",
            "MSG-DISPLAY-COMBINED-EN",
            "MSG-DISPLAY-COMBINED-ZH",
            "MSG-HINT",
            "MSG-HINT-ZH",
            "MSG-REPAIR-INSTRUCTION",
        ];
        match self.id {
            "MSG-ERR-CLOSING" | "MSG-ERR-NO-AUTO" => "AR-MSG-5",
            "MSG-ERR-NOT-JSON" | "MSG-JSON-RETRY-REMINDER" => "AR-JSON-RETRY-3",
            id if RESILIENT.contains(&id) => "AR-RES-MSG-1",
            id if id.starts_with("MSG-ERR-") => "AR-MSG-2",
            _ => "AR-MSG-1",
        }
    }

    /// The text of a template that has no placeholder, noted as rendered like [`Template::fill`]
    /// notes what it renders (see [`rendered_during`]).
    pub fn plain(&self) -> Cow<'static, str> {
        let text = self.worded();
        record(self.id, &text);
        text
    }

    /// The template's text in the wording in force on this thread ([`worded`]): the
    /// implementation's own, where it words this template, otherwise the spec's.
    pub fn worded(&self) -> Cow<'static, str> {
        WORDING.with(|w| {
            w.borrow()
                .as_ref()
                .and_then(|w| w.templates.get(self.id))
                .map_or(Cow::Borrowed(self.text), |t| Cow::Owned(t.clone()))
        })
    }

    /// The names of the template's `<placeholder>`s, in order of first appearance.
    pub fn placeholders(&self) -> Vec<&'static str> {
        placeholders(self.text)
    }

    /// Renders with plain, fully normative string arguments.
    pub fn render(&self, args: &[(&str, &str)]) -> String {
        let owned: Vec<(&str, Text)> = args.iter().map(|(k, v)| (*k, Text::exact(*v))).collect();
        let refs: Vec<(&str, &Text)> = owned.iter().map(|(k, v)| (*k, v)).collect();
        self.fill(&refs).text
    }
}

thread_local! {
    /// The templates rendered on this thread while [`rendered_during`] watches, with their texts.
    static RENDERED: std::cell::RefCell<Option<Vec<(&'static str, String)>>> =
        const { std::cell::RefCell::new(None) };
}

/// Notes a rendering, when somebody on this thread is watching.
fn record(id: &'static str, text: &str) {
    RENDERED.with(|r| {
        if let Some(seen) = r.borrow_mut().as_mut() {
            seen.push((id, text.to_owned()));
        }
    });
}

/// Runs `f` and returns, with its result, every template rendered on this thread meanwhile (its
/// spec ID and the rendered text), in order: how reach counting learns which message paths a case
/// took without the engine reporting them. An enclosing watch sees these renderings too.
pub fn rendered_during<R>(f: impl FnOnce() -> R) -> (R, Vec<(&'static str, String)>) {
    /// Puts the enclosing watch back even when `f` panics.
    struct Restore(Option<Option<Vec<(&'static str, String)>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take().flatten();
            RENDERED.with(|r| {
                let mut r = r.borrow_mut();
                let inner = r.take().unwrap_or_default();
                *r = outer.map(|mut o| {
                    o.extend(inner);
                    o
                });
            });
        }
    }
    let restore = Restore(Some(RENDERED.with(|r| r.borrow_mut().replace(Vec::new()))));
    let result = f();
    let seen = RENDERED.with(|r| r.borrow().clone()).unwrap_or_default();
    drop(restore);
    (result, seen)
}

/// The `<placeholder>` names of a template text, in order of first appearance: a `<`, a name of
/// ASCII lowercase letters and underscores, and a `>`.
fn placeholders(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(rest.len());
        if len > 0 && rest[len..].starts_with('>') {
            let name = &rest[..len];
            if !names.contains(&name) {
                names.push(name);
            }
            rest = &rest[len + 1..];
        }
    }
    names
}

thread_local! {
    /// The wording in force on this thread ([`worded`]), if any.
    static WORDING: std::cell::RefCell<Option<Wording>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `wording` in force on this thread: every template rendered meanwhile takes the
/// implementation's own text where `wording` has one. The enclosing wording is back when `f`
/// returns or panics. The conformance runner calls this around the reference's decisions (and
/// around the in-process gates it checks under a wording); nothing else does.
pub fn worded<R>(wording: &Wording, f: impl FnOnce() -> R) -> R {
    /// Puts the enclosing wording back even when `f` panics.
    struct Restore(Option<Wording>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            WORDING.with(|w| *w.borrow_mut() = outer);
        }
    }
    let inner = (!wording.is_empty()).then(|| wording.clone());
    let _restore = Restore(WORDING.with(|w| w.replace(inner)));
    f()
}

/// The version of the `--messages` file format this library reads.
pub const WORDING_VERSION: u32 = 1;

/// An implementation's own wording of some of the spec's templates, keyed by template ID, each
/// with exactly the spec template's placeholders. Cheap to clone. The empty wording is the
/// spec's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wording {
    templates: Arc<BTreeMap<String, String>>,
}

/// Why a `--messages` text is not a wording: where (the member, the line and column), what was
/// expected, and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WordingError(String);

impl Wording {
    /// Reads a wording from the text of a messages file:
    /// `{"version": 1, "templates": {"MSG-…": "…"}}`. Each ID must name a template of the spec,
    /// and each text must hold the same `<placeholder>`s as the spec's template, no fewer and no
    /// more (a placeholder may appear more than once). Pure: text in, wording or error out.
    pub fn parse(text: &str) -> Result<Wording, WordingError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let file: WordingFile = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let at = if path == "." {
                String::new()
            } else {
                format!("at {path}: ")
            };
            // The errors found in a template or the version say what to write; the others are
            // about the file's shape, which is shown.
            let shape = if path.starts_with("templates") || path == "version" {
                String::new()
            } else {
                format!(
                    " (a messages file is {{\"version\": {WORDING_VERSION}, \"templates\": {{\"MSG-...\": \"your text with the template's <placeholders>\"}}}})"
                )
            };
            WordingError(format!("{at}{inner}{shape}"))
        })?;
        de.end().map_err(|e| {
            WordingError(format!(
                "{e}: the messages file holds more after its object; remove it"
            ))
        })?;
        Ok(Wording {
            templates: Arc::new(file.templates.0),
        })
    }

    /// Whether it words no template (every text is the spec's).
    pub fn is_empty(&self) -> bool {
        self.templates.is_empty()
    }

    /// The implementation's text of each template it words, by template ID.
    pub fn templates(&self) -> &BTreeMap<String, String> {
        &self.templates
    }
}

/// A messages file as written.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WordingFile {
    #[allow(dead_code, reason = "checked as it is read")]
    version: WordingFileVersion,
    templates: WordingTemplates,
}

/// The file's version, refused as it is read unless it is [`WORDING_VERSION`].
struct WordingFileVersion;

impl<'de> serde::Deserialize<'de> for WordingFileVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let found = u64::deserialize(d)?;
        if found == u64::from(WORDING_VERSION) {
            Ok(WordingFileVersion)
        } else {
            Err(serde::de::Error::custom(format_args!(
                "version {found} is not supported: this runner reads version {WORDING_VERSION}; write \"version\": {WORDING_VERSION}"
            )))
        }
    }
}

/// The templates of a file, each checked as it is read, so that an error carries its position.
struct WordingTemplates(BTreeMap<String, String>);

impl<'de> serde::Deserialize<'de> for WordingTemplates {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(TemplatesVisitor)
    }
}

struct TemplatesVisitor;

impl<'de> serde::de::Visitor<'de> for TemplatesVisitor {
    type Value = WordingTemplates;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object from template IDs (\"MSG-...\") to texts")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let mut out = BTreeMap::new();
        while let Some(id) = map.next_key::<String>()? {
            let Some(template) = by_id(&id) else {
                let near = ALL
                    .iter()
                    .find(|t| t.id.eq_ignore_ascii_case(&id))
                    .map(|t| format!(" (did you mean {}?)", t.id))
                    .unwrap_or_default();
                return Err(A::Error::custom(format_args!(
                    "{id:?} is not a template ID of the spec{near}: expected one of the MSG-... IDs \
                     of the tables of spec/auto-review.md chapter 9 and AR-RES-MSG; correct or \
                     remove it"
                )));
            };
            if sent_by_the_world(template) {
                return Err(A::Error::custom(format_args!(
                    "{id} is the session log's message: the runner sends it to the adapter as the \
                     world's answer (spec/protocol.md, \"Canonical scenarios\") and the gate passes \
                     it on, so it is not an implementation's to word; remove it"
                )));
            }
            let text: String = map.next_value().map_err(|e| {
                A::Error::custom(format_args!("{id}: {e}; write the text as a JSON string"))
            })?;
            check_placeholders(template, &text).map_err(A::Error::custom)?;
            if out.insert(id.clone(), text).is_some() {
                return Err(A::Error::custom(format_args!(
                    "{id} is worded twice; keep one text"
                )));
            }
        }
        Ok(WordingTemplates(out))
    }
}

/// Whether the world hands the gate this text, rather than the gate or its tool runtime rendering
/// it: the session log's messages (AR-REVIEW-11), which a scenario's world sends as the spec words
/// them.
fn sent_by_the_world(template: Template) -> bool {
    template.id.starts_with("MSG-ERR-LOG-")
}

/// Why `text` cannot stand for `template`: a placeholder of the spec's dropped, or one added.
fn check_placeholders(template: Template, text: &str) -> Result<(), String> {
    let want = template.placeholders();
    let got = placeholders(text);
    let list = |names: &[&str]| {
        if names.is_empty() {
            "none".to_owned()
        } else {
            names
                .iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    if let Some(dropped) = want.iter().find(|n| !got.contains(n)) {
        return Err(format!(
            "{}: the text drops the placeholder <{dropped}> (the spec's template {:?} has {}): \
             put <{dropped}> where your implementation inserts it",
            template.id,
            template.text,
            list(&want)
        ));
    }
    if let Some(added) = got.iter().find(|n| !want.contains(n)) {
        return Err(format!(
            "{}: <{added}> is not a placeholder of this template (the spec's template {:?} has {}): \
             remove it, or write it without angle brackets",
            template.id,
            template.text,
            list(&want)
        ));
    }
    Ok(())
}

macro_rules! templates {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $text:literal;)*) => {
        $( $(#[$doc])* pub const $name: Template = Template { id: $id, text: $text }; )*
        /// Every template, in spec order.
        pub const ALL: &[Template] = &[$($name),*];
    };
}

templates! {
    /// The tool runtime's prefix for a refused call (AR-RESULT-2).
    ERROR_PREFIX = "MSG-ERROR-PREFIX", "Error: <message>";
    /// A final reviewer denial (AR-DECIDE-2).
    FINAL_DENY = "MSG-FINAL-DENY", "Auto review rejected tool \"<name>\"; its body was not executed";
    /// The audited reason of an ask after a reviewer denial without reason (AR-DECIDE-5).
    ASK_REVIEW = "MSG-ASK-REVIEW", "Auto review denied tool \"<name>\"";
    /// The audited reason of an ask after a reviewer denial with reason (AR-DECIDE-5).
    ASK_REVIEW_REASON = "MSG-ASK-REVIEW-REASON", "Auto review denied tool \"<name>\": <reason>";
    /// English display reason without reviewer reason.
    DISPLAY_EN = "MSG-DISPLAY-EN", "Auto review denied this call.";
    /// English display reason with reviewer reason.
    DISPLAY_EN_REASON = "MSG-DISPLAY-EN-REASON", "Auto review denied this call: <reason>";
    /// Chinese display reason without reviewer reason.
    DISPLAY_ZH = "MSG-DISPLAY-ZH", "Auto review 拒绝了此调用。";
    /// Chinese display reason with reviewer reason (full-width colon).
    DISPLAY_ZH_REASON = "MSG-DISPLAY-ZH-REASON", "Auto review 拒绝了此调用：<reason>";
    /// A reviewer failure (AR-DECIDE-1).
    FAILED = "MSG-FAILED", "Auto review of tool \"<name>\" failed; its body was not executed: <error>";
    /// The approval service answered `rejected` (AR-APPROVAL-3).
    USER_REJECTED = "MSG-USER-REJECTED", "the user rejected tool \"<name>\"";
    /// The approval service answered `cancelled` (AR-APPROVAL-3).
    APPROVAL_CANCELLED = "MSG-APPROVAL-CANCELLED", "approval for tool \"<name>\" was cancelled";
    /// The approval service answered `unavailable` (AR-APPROVAL-3).
    APPROVAL_UNAVAILABLE = "MSG-APPROVAL-UNAVAILABLE", "tool \"<name>\" requires approval, but no approval channel is available";
    /// An ask for a call without an agent (AR-APPROVAL-1).
    NO_AGENT = "MSG-NO-AGENT", "tool \"<name>\" requires approval, but the call has no agent to route it through";
    /// The canonical pre-dispatch cancellation (AR-RESULT-4).
    ABORTED_BEFORE_DISPATCH = "MSG-ABORTED-BEFORE-DISPATCH", "tool call aborted before dispatch";
    /// A thrown approval request (AR-APPROVAL-4); the message is implementation-defined.
    APPROVAL_THREW = "MSG-APPROVAL-THREW", "<message>";
    /// A response that ended with an error or aborted finish (AR-PARSE-1).
    ERR_ENDED_DETAIL = "MSG-ERR-ENDED-DETAIL", "auto-review: reviewer ended with <kind> <code>: <message>";
    /// A response that ended with another non-stop finish (AR-PARSE-1).
    ERR_ENDED = "MSG-ERR-ENDED", "auto-review: reviewer ended with <kind>";
    /// A stream that ended without a terminal finish (AR-PARSE-1, AR-TOL-1).
    ERR_NO_FINISH = "MSG-ERR-NO-FINISH", "auto-review: reviewer emitted no terminal finish";
    /// Data after the terminal finish (AR-PARSE-2).
    ERR_AFTER_FINISH = "MSG-ERR-AFTER-FINISH", "auto-review: reviewer emitted data after its terminal finish";
    /// Wrong block sequence (AR-PARSE-3).
    ERR_BLOCKS = "MSG-ERR-BLOCKS", "auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block";
    /// Not an object (AR-PARSE-5).
    ERR_NOT_OBJECT = "MSG-ERR-NOT-OBJECT", "auto-review: reviewer output must be one JSON object";
    /// A repeated member (AR-PARSE-6).
    ERR_REPEATED = "MSG-ERR-REPEATED", "auto-review: reviewer output repeats a JSON member";
    /// Not one of the six shapes (AR-PARSE-7).
    ERR_PROTOCOL = "MSG-ERR-PROTOCOL", "auto-review: reviewer output does not match the risk/decision protocol";
    /// A native schema that is missing or ambiguous (AR-REVIEW-2).
    ERR_SCHEMA_NATIVE = "MSG-ERR-SCHEMA-NATIVE", "auto-review: the pending native tool schema is missing or ambiguous";
    /// A PTC binding schema that is missing or inconsistent (AR-REVIEW-2).
    ERR_SCHEMA_PTC = "MSG-ERR-SCHEMA-PTC", "auto-review: the pending PTC binding schema is missing or inconsistent";
    /// A session whose latest request header names no complete route (AR-REVIEW-9).
    ERR_ROUTE = "MSG-ERR-ROUTE", "auto-review: no complete request-header route is available";
    /// A session whose header names no working directory (AR-REVIEW-10).
    ERR_NO_CWD = "MSG-ERR-NO-CWD", "auto-review: the session has no working directory";
    /// A PTC start logged outside any step (AR-REVIEW-11).
    ERR_LOG_PTC_NO_STEP = "MSG-ERR-LOG-PTC-NO-STEP", "auto-review: a PTC call has no owning step in the session log";
    /// Two PTC starts with one identity in one step (AR-REVIEW-11).
    ERR_LOG_PTC_IDENTITY = "MSG-ERR-LOG-PTC-IDENTITY", "auto-review: a PTC call identity is ambiguous in the session log";
    /// No step is open in the session log (AR-REVIEW-11).
    ERR_LOG_NO_OPEN_STEP = "MSG-ERR-LOG-NO-OPEN-STEP", "auto-review: the pending call has no open step in the session log";
    /// The pending root call is not logged exactly once in the open step (AR-REVIEW-11).
    ERR_LOG_ROOT = "MSG-ERR-LOG-ROOT", "auto-review: the pending root call is missing or ambiguous in the session log";
    /// The pending PTC call's start is not logged in the open step (AR-REVIEW-11).
    ERR_LOG_PTC_CALL = "MSG-ERR-LOG-PTC-CALL", "auto-review: the pending PTC call is missing or ambiguous in the session log";
    /// The pending root call appears twice in the visible surface (AR-REVIEW-11).
    ERR_LOG_ROOT_SURFACE_AMBIGUOUS = "MSG-ERR-LOG-ROOT-SURFACE-AMBIGUOUS", "auto-review: the pending root call is ambiguous in the current surface";
    /// A visible call whose identity is logged twice (AR-REVIEW-11).
    ERR_LOG_NATIVE_IDENTITY = "MSG-ERR-LOG-NATIVE-IDENTITY", "auto-review: a native call identity is ambiguous in the session log";
    /// A visible call before the pending root that was never logged (AR-REVIEW-11).
    ERR_LOG_VISIBLE_MISSING = "MSG-ERR-LOG-VISIBLE-MISSING", "auto-review: a visible call before the pending root is missing from the session log";
    /// A visible call never started that has logged PTC dispatches (AR-REVIEW-11).
    ERR_LOG_UNSTARTED_DISPATCHES = "MSG-ERR-LOG-UNSTARTED-DISPATCHES", "auto-review: an unstarted visible call has logged PTC dispatches";
    /// Started calls of one message after an unstarted one (AR-REVIEW-11).
    ERR_LOG_STARTED_PREFIX = "MSG-ERR-LOG-STARTED-PREFIX", "auto-review: visible native call logs do not form a started prefix";
    /// A visible call whose name or arguments differ from its log (AR-REVIEW-11).
    ERR_LOG_VISIBLE_DISAGREES = "MSG-ERR-LOG-VISIBLE-DISAGREES", "auto-review: a visible tool call disagrees with its logged action";
    /// The pending root call is not in the visible surface (AR-REVIEW-11).
    ERR_LOG_ROOT_SURFACE_MISSING = "MSG-ERR-LOG-ROOT-SURFACE-MISSING", "auto-review: the pending root call is missing from the current surface";
    /// A native call whose name or arguments differ from its log (AR-REVIEW-11).
    ERR_LOG_NATIVE_DISAGREES = "MSG-ERR-LOG-NATIVE-DISAGREES", "auto-review: the pending native call disagrees with its logged action";
    /// A PTC call whose parent, root, name or arguments differ from its logged start (AR-REVIEW-11).
    ERR_LOG_PTC_DISAGREES = "MSG-ERR-LOG-PTC-DISAGREES", "auto-review: the pending PTC call disagrees with its logged action";
    /// Selecting Auto while the integration is closing (AR-DISPOSE-5).
    ERR_CLOSING = "MSG-ERR-CLOSING", "auto-review: integration is closing";
    /// Selecting Auto once the integration is gone (AR-DISPOSE-4); the wording is the
    /// deployment's.
    ERR_NO_AUTO = "MSG-ERR-NO-AUTO", "<message>";
    /// A tool-call block in a tolerant read (AR-TOL-2).
    ERR_TOOL_CALL = "MSG-ERR-TOOL-CALL", "auto-review: reviewer emitted a tool call instead of a decision";
    /// Reviewer text over the tolerant reader's bound (AR-TOL-3).
    ERR_TOO_LARGE = "MSG-ERR-TOO-LARGE", "auto-review: reviewer output exceeds 1048576 bytes";
    /// No decision object (AR-TOL-5).
    ERR_NO_DECISION = "MSG-ERR-NO-DECISION", "auto-review: reviewer output holds no decision object";
    /// Differing decision objects (AR-TOL-6).
    ERR_AMBIGUOUS = "MSG-ERR-AMBIGUOUS", "auto-review: reviewer output is ambiguous: it holds differing decision objects";
    /// A malformed object that mentions a decision (AR-TOL-7).
    ERR_MALFORMED = "MSG-ERR-MALFORMED", "auto-review: reviewer output holds a malformed decision object";
    /// An allow beside braces outside the decision (AR-TOL-9).
    ERR_CONFLICT = "MSG-ERR-CONFLICT", "auto-review: reviewer output holds an allow beside other braces";
    /// An allow beside prose when allows must stand alone (AR-TOL-10).
    ERR_ALLOW_PROSE = "MSG-ERR-ALLOW-PROSE", "auto-review: reviewer output holds an allow beside prose";
    /// The review's deadline passed (AR-RES-RETRY-4).
    ERR_DEADLINE = "MSG-ERR-DEADLINE", "auto-review: the review did not finish within <ms> ms";
    /// The audited reason of an ask after a reviewer failure (AR-RES-FAIL-2).
    ASK_FAILED = "MSG-ASK-FAILED", "Auto review of tool \"<name>\" failed: <error>";
    /// English display reason after a reviewer failure (AR-RES-FAIL-2).
    DISPLAY_FAILED_EN = "MSG-DISPLAY-FAILED-EN", "Auto review could not complete for this call: <error>";
    /// Chinese display reason after a reviewer failure (AR-RES-FAIL-2).
    DISPLAY_FAILED_ZH = "MSG-DISPLAY-FAILED-ZH", "Auto review 未能完成对此调用的审查：<error>";
    /// The audited reason when downstream asks after a reviewer denial or failure (AR-RES-ASK-1).
    ASK_COMBINED = "MSG-ASK-COMBINED", "<review>; a later listener also asks: <reason>";
    /// The English display reason of a combined ask (AR-RES-ASK-1).
    DISPLAY_COMBINED_EN = "MSG-DISPLAY-COMBINED-EN", "<review>\nA later check also asks: <reason>";
    /// The Chinese display reason of a combined ask (AR-RES-ASK-1).
    DISPLAY_COMBINED_ZH = "MSG-DISPLAY-COMBINED-ZH", "<review>\n后续检查也请求确认：<reason>";
    /// The recovery hint after consecutive failures, for the audited reason, the English display
    /// and the model (AR-RES-HINT-2).
    HINT = "MSG-HINT", "Auto review has failed <count> times in a row on route <route>; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.";
    /// The recovery hint in Chinese (AR-RES-HINT-2).
    HINT_ZH = "MSG-HINT-ZH", "Auto review 已在路由 <route> 上连续失败 <count> 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。";
    /// Invalid JSON in a profile that asks again after it (AR-JSON-RETRY-3).
    ERR_NOT_JSON = "MSG-ERR-NOT-JSON", "auto-review: reviewer output must be valid JSON";
    /// The reminder appended to the review policy when asking again after invalid JSON
    /// (AR-JSON-RETRY-1, AR-JSON-RETRY-3).
    JSON_RETRY_REMINDER = "MSG-JSON-RETRY-REMINDER", "Your previous response was not valid JSON. Review the same pending action under REVIEW_POLICY. Return exactly one JSON object matching its risk/decision rules. Do not include analysis, Markdown, or surrounding prose.";
    /// The instruction sent with a repair request (AR-RES-RETRY-2).
    REPAIR_INSTRUCTION = "MSG-REPAIR-INSTRUCTION", "Your previous reply could not be read as a decision. Review the same pending action again and reply with only the JSON object: exactly one of the six shapes in REVIEW_POLICY, with no Markdown, prose or tool call.";
}

/// The template with this spec ID, if there is one.
pub fn by_id(id: &str) -> Option<Template> {
    ALL.iter().copied().find(|t| t.id == id)
}

/// The reference engine's implementation-defined texts (AR-MSG-3). They are not templates: another
/// implementation may word them differently.
pub mod reference {
    /// The failure message of a review that the caller's signal ended (AR-CANCEL-6).
    pub const CALLER_ENDED_REVIEW: &str =
        "auto-review: reviewer ended with aborted ABORTED: the caller cancelled the call";
    /// The failure message of a review that the lifecycle's signal ended (AR-CANCEL-6).
    pub const LIFECYCLE_ENDED_REVIEW: &str =
        "auto-review: reviewer ended with aborted ABORTED: the integration was disposed";
    /// What the shipped `/permission` command answers when Auto is selected once its integration
    /// is gone (AR-DISPOSE-4), with the default preset table.
    pub const NO_AUTO: &str =
        "unknown preset \"auto\" (available: workspace-write, danger-full-access)";
    /// The message of an approval request that threw (AR-APPROVAL-4).
    pub const APPROVAL_OUTSIDE_TURN: &str = "approval.request() outside an open turn: the approval/asked + approval/decided audit pair must be turn-enclosed (a bare event between turns is crash-tail garbage on reload). Ask from inside the turn that needs the decision.";
}

/// `INFO-DENIED` (AR-MSG-4): the structured info of a final reviewer denial.
pub fn info_denied(reason: Option<&str>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), "AutoReviewDeniedError".into());
    m.insert("code".into(), "AUTO_REVIEW_DENIED".into());
    if let Some(r) = reason {
        m.insert("reason".into(), r.into());
    }
    m
}

/// `INFO-FAILED` (AR-RES-FAIL-3): the structured info of a reviewer failure denied before
/// downstream in the resilient profile.
pub fn info_failed(class: crate::outcome::FailureClass) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), "AutoReviewFailedError".into());
    m.insert("code".into(), "AUTO_REVIEW_FAILED".into());
    m.insert("failure".into(), class.as_str().into());
    m
}

/// `INFO-ABORTED` (AR-MSG-4): the structured info of the pre-dispatch cancellation.
pub fn info_aborted() -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), "AbortError".into());
    m.insert("code".into(), "ABORTED_BEFORE_DISPATCH".into());
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_sees_what_is_rendered_while_it_runs_and_only_that() {
        let _ = FINAL_DENY.render(&[("name", "before")]);
        let (n, seen) = rendered_during(|| {
            let _ = FINAL_DENY.render(&[("name", "x")]);
            let ((), inner) = rendered_during(|| {
                let _ = ERR_ROUTE.plain();
            });
            assert_eq!(inner, [("MSG-ERR-ROUTE", ERR_ROUTE.text.to_owned())]);
            7
        });
        assert_eq!(n, 7);
        assert_eq!(
            seen,
            [
                (
                    "MSG-FINAL-DENY",
                    "Auto review rejected tool \"x\"; its body was not executed".to_owned()
                ),
                ("MSG-ERR-ROUTE", ERR_ROUTE.text.to_owned()),
            ]
        );
        // Nothing is kept once the watch ends, even when what it watched panicked.
        let _ = std::panic::catch_unwind(|| {
            rendered_during(|| {
                let _ = ERR_ROUTE.plain();
                panic!("inside");
            })
        });
        let ((), after) = rendered_during(|| {});
        assert!(after.is_empty(), "{after:?}");
    }

    fn parse_err(text: &str) -> String {
        Wording::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_wording_renders_its_own_templates_and_leaves_the_others_to_the_spec() {
        let w = Wording::parse(
            r#"{"version": 1, "templates": {
                "MSG-FAILED": "<name> was stopped (review failed: <error>)",
                "MSG-DISPLAY-EN": "Blocked by review."
            }}"#,
        )
        .unwrap();
        assert_eq!(w.templates().len(), 2);
        let err = Text::implementation_defined("boom");
        let name = Text::exact("ls");
        let (failed, display, deny) = worded(&w, || {
            (
                FAILED.fill(&[("name", &name), ("error", &err)]),
                DISPLAY_EN.plain(),
                FINAL_DENY.render(&[("name", "ls")]),
            )
        });
        assert_eq!(failed.text, "ls was stopped (review failed: boom)");
        // The normative prefix ends where the implementation-defined error starts in this wording.
        assert_eq!(
            failed.prefix,
            Some("ls was stopped (review failed: ".chars().count())
        );
        assert_eq!(display, "Blocked by review.");
        assert_eq!(
            deny,
            "Auto review rejected tool \"ls\"; its body was not executed"
        );
        // Outside the scope, and after a panic inside one, the spec's wording is back.
        let _ = std::panic::catch_unwind(|| worded(&w, || panic!("inside")));
        assert_eq!(DISPLAY_EN.plain(), "Auto review denied this call.");
        // An enclosing wording is back once an inner one ends.
        let empty = Wording::default();
        worded(&w, || {
            worded(&empty, || assert_eq!(DISPLAY_EN.plain(), DISPLAY_EN.text));
            assert_eq!(DISPLAY_EN.plain(), "Blocked by review.");
        });
    }

    #[test]
    fn a_bad_messages_file_says_where_what_was_expected_and_the_fix() {
        let e = parse_err("{\"version\": 1, \"templates\": {\"MSG-FAILED\": ");
        assert!(e.contains("line 1 column"), "{e}");
        let e = parse_err(r#"{"version": 2, "templates": {}}"#);
        assert!(e.contains("at version: version 2 is not supported"), "{e}");
        assert!(e.contains("write \"version\": 1"), "{e}");
        let e = parse_err("{\"version\": 1, \"templates\": {\n  \"MSG-FAIL\": \"x\"}}");
        assert!(e.contains("\"MSG-FAIL\" is not a template ID"), "{e}");
        assert!(e.contains("line 2 column"), "{e}");
        let e = parse_err(r#"{"version": 1, "templates": {"msg-failed": "x"}}"#);
        assert!(e.contains("did you mean MSG-FAILED?"), "{e}");
        let e = parse_err(r#"{"version": 1, "templates": {"MSG-FAILED": "<name> failed"}}"#);
        assert!(
            e.contains("at templates: MSG-FAILED: the text drops the placeholder <error>"),
            "{e}"
        );
        assert!(e.contains("put <error> where"), "{e}");
        let e = parse_err(r#"{"version": 1, "templates": {"MSG-DISPLAY-EN": "denied: <reason>"}}"#);
        assert!(
            e.contains("<reason> is not a placeholder of this template"),
            "{e}"
        );
        assert!(e.contains("has none"), "{e}");
        let e = parse_err(r#"{"version": 1, "templates": {"MSG-ERR-LOG-ROOT": "x"}}"#);
        assert!(
            e.contains("MSG-ERR-LOG-ROOT is the session log's message"),
            "{e}"
        );
        let e = parse_err(r#"{"version": 1, "templates": {"MSG-FAILED": 3}}"#);
        assert!(e.contains("MSG-FAILED: invalid type: integer `3`"), "{e}");
        assert!(e.contains("as a JSON string"), "{e}");
        let e = parse_err(r#"{"version": 1, "templates": {}, "extra": 1}"#);
        assert!(e.contains("unknown field `extra`"), "{e}");
        let e = parse_err(r#"{"templates": {}}"#);
        assert!(e.contains("missing field `version`"), "{e}");
        let e = parse_err(r#"{"version": 1, "templates": {}} {}"#);
        assert!(e.contains("more after its object"), "{e}");
        // Every error names the file's shape.
        let e = parse_err("[]");
        assert!(e.contains("a messages file is {\"version\": 1"), "{e}");
        // A placeholder may repeat; the spec's own texts are a wording.
        let spec = ALL
            .iter()
            .filter(|t| !sent_by_the_world(**t))
            .map(|t| format!("{:?}: {:?}", t.id, t.text))
            .collect::<Vec<_>>()
            .join(", ");
        let all =
            Wording::parse(&format!("{{\"version\": 1, \"templates\": {{{spec}}}}}")).unwrap();
        assert_eq!(all.templates().len(), ALL.len() - 14);
        assert!(
            Wording::parse(
                r#"{"version": 1, "templates": {"MSG-FAILED": "<name> <name>: <error>"}}"#
            )
            .is_ok()
        );
    }

    #[test]
    fn fill_substitutes_once_and_tracks_the_normative_prefix() {
        let name = Text::exact("<error>");
        let err = Text::implementation_defined("boom");
        let t = FAILED.fill(&[("name", &name), ("error", &err)]);
        assert_eq!(
            t.text,
            "Auto review of tool \"<error>\" failed; its body was not executed: boom"
        );
        assert_eq!(t.prefix, Some(t.text.chars().count() - 4));
    }

    #[test]
    fn unknown_placeholders_stay_literal() {
        assert_eq!(ERROR_PREFIX.render(&[]), "Error: <message>");
        assert_eq!(ERROR_PREFIX.render(&[("message", "x")]), "Error: x");
    }

    /// A `<` left literal counts as one character of the normative prefix before an argument that
    /// is implementation-defined: the prefix ends exactly where that argument starts.
    #[test]
    fn a_literal_angle_bracket_counts_toward_the_prefix() {
        let t = Template {
            id: "TEST",
            text: "a <b> < c: <message>",
        };
        let m = Text::implementation_defined("zz");
        let filled = t.fill(&[("message", &m)]);
        assert_eq!(filled.text, "a <b> < c: zz");
        assert_eq!(filled.prefix, Some("a <b> < c: ".chars().count()));
    }
}
