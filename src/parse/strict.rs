//! The baseline profile's strict reader (AR-PARSE-1..7): exactly the shipped rules, in their order.

use super::{BlockRef, Reply, ReplyError, ReviewerDecision, json, object};
use crate::scenario::BlockKind;

/// Reads a reply strictly: a normal stop, nothing after it, reasoning blocks then one text block,
/// and that text exactly one legal protocol object.
pub fn read(reply: &Reply<'_>) -> Result<ReviewerDecision, ReplyError> {
    parse_text(text_block(reply)?)
}

/// The text the strict reader reads, once the reply has passed AR-PARSE-1..3: a normal stop,
/// nothing after it, and reasoning blocks then one text block.
pub fn text_block<'r>(reply: &Reply<'r>) -> Result<&'r str, ReplyError> {
    reply.stopped()?;
    if reply.data_after_finish {
        return Err(ReplyError::AfterFinish);
    }
    lone_text(&reply.blocks).ok_or(ReplyError::Blocks)
}

/// The text of blocks that are reasoning blocks then exactly one text block (AR-PARSE-3), or
/// `None` for any other sequence.
pub fn lone_text<'r>(blocks: &[BlockRef<'r>]) -> Option<&'r str> {
    match blocks.split_last() {
        Some((last, before))
            if last.kind == BlockKind::Text
                && before.iter().all(|b| b.kind == BlockKind::Reasoning) =>
        {
            Some(last.text)
        }
        _ => None,
    }
}

/// Reads one text as exactly one legal protocol object (AR-PARSE-4..7).
pub fn parse_text(text: &str) -> Result<ReviewerDecision, ReplyError> {
    let members = object::members(text)?;
    object::shape(&members)
}

/// [`parse_text`] for a text the caller hands over: a reason is decoded in the text's own buffer,
/// so that the reading never holds more than the text and a few words, however long the reason.
pub fn parse_owned(text: String) -> Result<ReviewerDecision, ReplyError> {
    let shape = object::shape_of(&object::members(&text)?)?;
    Ok(shape.decision(|at| json::decode_in_place(text, at)))
}
