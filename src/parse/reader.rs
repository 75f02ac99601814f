//! The rule `reader` carries its behaviour: which reader reads a reply (chapter 4, AR-PARSE-*; or
//! chapter 10, AR-TOL-*), as a stream, as a whole text or as a JSON array of blocks, and the bound
//! it reads a raw text within. Every place that reads a reply by the profile's reader asks the
//! rule here.

use super::{Reply, ReplyError, ReviewerDecision, blocks, strict, tolerant};
use crate::profile::Reader;

impl Reader {
    /// Reads a delivered reply.
    pub fn read(self, reply: &Reply<'_>) -> Result<ReviewerDecision, ReplyError> {
        match self {
            // Chapter 4, AR-PARSE-*
            Reader::Strict => strict::read(reply),
            // Chapter 10, AR-TOL-*
            Reader::Tolerant => tolerant::read(reply),
        }
    }

    /// Reads a whole text ended by a normal stop, taking it: the strict reader decodes a reason
    /// in the text's own buffer (AR-PARSE-3..7).
    pub fn read_text(self, text: String) -> Result<ReviewerDecision, ReplyError> {
        match self {
            Reader::Strict => strict::parse_owned(text),
            Reader::Tolerant => tolerant::read(&Reply::text(&text)),
        }
    }

    /// Reads a JSON array of blocks ended by a normal stop; `Err` when it is not one.
    pub fn read_blocks(
        self,
        json: String,
    ) -> Result<Result<ReviewerDecision, ReplyError>, blocks::BlocksError> {
        match self {
            Reader::Strict => blocks::strict(json),
            Reader::Tolerant => blocks::tolerant(&json),
        }
    }

    /// What a reply this reader refuses as too large says when read by its other rules, the
    /// bound lifted (`None` for a reply the bound did not refuse; the strict reader has none):
    /// never a decision a gate may take, only how the judge tells a body run on an allow past the
    /// bound from one nobody allowed (`spec/protocol.md`, "Severities").
    pub fn past_the_bound(self, reply: &Reply<'_>) -> Option<Result<ReviewerDecision, ReplyError>> {
        match self {
            Reader::Strict => None,
            Reader::Tolerant => tolerant::past_the_bound(reply),
        }
    }

    /// The most bytes of text the reader reads before it refuses a reply as too large
    /// (AR-TOL-3); the strict reader has no bound.
    pub fn bound(self) -> Option<usize> {
        match self {
            Reader::Strict => None,
            Reader::Tolerant => Some(tolerant::MAX_TEXT_BYTES),
        }
    }
}
