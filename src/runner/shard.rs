//! Shards: the part of a run one process takes, for a CI matrix. The same seed gives disjoint
//! shards whose union is the whole run, fixed and generated cases alike.

/// Which part of a run this process takes: cases whose number is `index - 1` modulo `of`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(try_from = "ShardParts")]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    /// How many shards the run is split into.
    pub of: usize,
}

/// A shard as a report writes it, before it is checked.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ShardParts {
    /// 1-based.
    index: usize,
    /// How many shards the run is split into.
    of: usize,
}

impl TryFrom<ShardParts> for Shard {
    type Error = String;

    fn try_from(p: ShardParts) -> Result<Shard, String> {
        Shard::parse(&format!("{}/{}", p.index, p.of))
    }
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, of: 1 };

    /// Reads `i/n` (1 ≤ i ≤ n).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("a shard is written i/n (e.g. 2/4), not {text:?}"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("{i:?} is not a shard number"))?;
        let of: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("{n:?} is not a shard count"))?;
        if of == 0 || index == 0 || index > of {
            return Err(format!(
                "shard {index}/{of}: the number must be between 1 and the count"
            ));
        }
        Ok(Shard { index, of })
    }

    /// Whether case number `k` (0-based, in run order) belongs to this shard.
    pub fn contains(self, k: usize) -> bool {
        k % self.of == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}
