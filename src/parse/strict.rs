//! The baseline profile's strict reader (AR-PARSE-1..7): exactly the shipped rules, in their order.

use super::{Reply, ReplyError, ReviewerDecision, object};
use crate::scenario::BlockKind;

/// Reads a reply strictly: a normal stop, nothing after it, reasoning blocks then one text block,
/// and that text exactly one legal protocol object.
pub fn read(reply: &Reply<'_>) -> Result<ReviewerDecision, ReplyError> {
    reply.stopped()?;
    if reply.data_after_finish {
        return Err(ReplyError::AfterFinish);
    }
    let text = match reply.blocks.split_last() {
        Some((last, before))
            if last.kind == BlockKind::Text
                && before.iter().all(|b| b.kind == BlockKind::Reasoning) =>
        {
            last.text
        }
        _ => return Err(ReplyError::Blocks),
    };
    parse_text(text)
}

/// Reads one text as exactly one legal protocol object (AR-PARSE-4..7).
pub fn parse_text(text: &str) -> Result<ReviewerDecision, ReplyError> {
    let members = object::members(text)?;
    object::shape(&members)
}
