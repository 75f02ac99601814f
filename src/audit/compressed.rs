//! Compressed audit logs (`spec/audit.md`, "Logs"): a gzip or zstd stream read as the lines it
//! holds, chosen by the log's name, in constant memory. Streams only: opening files is the
//! command's.
//!
//! A stream of several members (gzip) or frames (zstd, skippable frames included), as a log
//! appended to in pieces is, is read whole. A stream that is cut short or corrupt ends with an
//! error the reader reports where it happened; what was decoded before it is kept.

use std::io::{self, BufRead, Read};

use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

/// How a log is compressed, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain JSON lines.
    None,
    /// gzip (`.gz`).
    Gzip,
    /// zstd (`.zst`, `.zstd`).
    Zstd,
}

impl Compression {
    /// The compression a log's name says: `.gz`, `.zst` or `.zstd` at its end; anything else
    /// (standard input, `-`, included) is plain.
    pub fn of(name: &str) -> Compression {
        if name.ends_with(".gz") {
            Compression::Gzip
        } else if name.ends_with(".zst") || name.ends_with(".zstd") {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// `source` decoded: the lines of the log.
    pub fn decode<'a>(self, source: Box<dyn BufRead + 'a>) -> Box<dyn BufRead + 'a> {
        match self {
            Compression::None => source,
            Compression::Gzip => Box::new(io::BufReader::with_capacity(
                1 << 16,
                flate2::bufread::MultiGzDecoder::new(source),
            )),
            Compression::Zstd => Box::new(io::BufReader::with_capacity(
                1 << 16,
                ZstdFrames {
                    source,
                    decoder: FrameDecoder::new(),
                    in_frame: false,
                },
            )),
        }
    }
}

/// Every frame of a zstd stream, one after another. The decoder's window is bounded by the crate's
/// limit, so a hostile frame cannot ask for unbounded memory.
struct ZstdFrames<R> {
    source: R,
    decoder: FrameDecoder,
    /// Whether a frame's header has been read and its blocks are being decoded.
    in_frame: bool,
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.in_frame {
                while self.decoder.can_collect() == 0 && !self.decoder.is_finished() {
                    self.decoder
                        .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                        .map_err(|e| zstd_error(&e))?;
                }
                let n = self.decoder.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                // The frame is decoded and drained: the next, if any.
                self.in_frame = false;
            }
            if self.source.fill_buf()?.is_empty() {
                return Ok(0);
            }
            match self.decoder.reset(&mut self.source) {
                Ok(()) => self.in_frame = true,
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let skipped = io::copy(
                        &mut (&mut self.source).take(u64::from(length)),
                        &mut io::sink(),
                    )?;
                    if skipped < u64::from(length) {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "zstd: the stream ends inside a skippable frame",
                        ));
                    }
                }
                Err(e) => return Err(zstd_error(&e)),
            }
        }
    }
}

fn zstd_error(e: &FrameDecoderError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))
}
