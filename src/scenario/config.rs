//! The resilient gate's configuration (AR-RES-CONFIG-1): every member optional, every value out of
//! range refused with a message naming the member, never replaced by a default.

use schemars::JsonSchema;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::Route;
use super::portable::MAX_SAFE_INTEGER;
use super::whole_number::Whole;

/// The resilient gate's configuration (AR-RES-CONFIG-1); every member is optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// What a reviewer failure does under the effective policy `ask`. Default `ask`.
    #[serde(default)]
    pub on_failure: OnFailure,
    /// How many times a protocol failure is repaired by asking again. Default 1, at most 5.
    #[serde(default = "one", deserialize_with = "at_most_5")]
    #[schemars(range(max = 5))]
    pub repair_attempts: u32,
    /// How many times a transport failure is retried. Default 1, at most 5.
    #[serde(default = "one", deserialize_with = "at_most_5")]
    #[schemars(range(max = 5))]
    pub transport_retries: u32,
    /// The one deadline all attempts share, in milliseconds. Default 60000, at least 1.
    #[serde(default = "sixty_seconds", deserialize_with = "positive_ms")]
    #[schemars(range(min = 1))]
    pub review_timeout_ms: u64,
    /// The route every reviewer request uses; `null` for the session's route. Default `null`.
    #[serde(default, deserialize_with = "complete_route")]
    pub reviewer_route: Option<Route>,
    /// From which consecutive failure on the hint is shown. Default 3, at least 1.
    #[serde(default = "three", deserialize_with = "at_least_1")]
    #[schemars(range(min = 1))]
    pub failure_hint_after: u32,
    /// The sampling temperature of every reviewer request: a number from 0 to 2, or
    /// `provider-default` to leave it out. Default 0.
    #[serde(default, skip_serializing_if = "Temperature::is_default")]
    pub temperature: Temperature,
    /// How many times a reply that is not valid JSON is asked again, in a profile with
    /// `asks_again: json-retry` (AR-JSON-RETRY-1). Default 1, at most 5 in a scenario.
    #[serde(
        default = "one",
        deserialize_with = "json_retries",
        skip_serializing_if = "is_one"
    )]
    #[schemars(range(max = 5))]
    pub max_json_retries: u32,
}

impl Config {
    /// The name of every member, as a scenario writes it, in the order of the struct.
    pub const MEMBERS: [&'static str; 8] = [
        "on_failure",
        "repair_attempts",
        "transport_retries",
        "review_timeout_ms",
        "reviewer_route",
        "failure_hint_after",
        "temperature",
        "max_json_retries",
    ];
}

/// Members the configuration once had, with why each was retired: a scenario that still names
/// one is refused with this reason rather than as an unknown member.
pub const RETIRED: &[(&str, &str)] = &[(
    "strict_allow",
    "`strict_allow` was retired: an allow now always stands alone in the reviewer's text \
     (AR-TOL-10), so remove this member",
)];

impl Default for Config {
    fn default() -> Self {
        Config {
            on_failure: OnFailure::Ask,
            repair_attempts: 1,
            transport_retries: 1,
            review_timeout_ms: 60_000,
            reviewer_route: None,
            failure_hint_after: 3,
            temperature: Temperature::default(),
            max_json_retries: 1,
        }
    }
}

fn one() -> u32 {
    1
}
fn three() -> u32 {
    3
}
fn sixty_seconds() -> u64 {
    60_000
}

/// The extra attempts one review may make, of either kind.
const EXTRA_ATTEMPTS: Whole =
    Whole::new("", 0, 5).above("is more than the 5 extra attempts one review allows");

fn at_most_5<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    EXTRA_ATTEMPTS.read_u32(d)
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// The reviewer JSON retry limit: the 0.2.x gate takes any non-negative safe integer, and refuses
/// anything else as "reviewer JSON retry limit must be a non-negative safe integer"; a scenario
/// scripts at most 5, as many as a review's other budgets.
fn json_retries<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    Whole::new("", 0, 5)
        .above("is more retries than a scenario scripts (the 0.2.x gate takes any non-negative safe integer; the suite checks up to 5)")
        .read_u32(d)
}

/// A configured route names both a provider and a model: an incomplete one could never be
/// requested, and the session's route is what `null` is for.
fn complete_route<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Route>, D::Error> {
    let route = Option::<Route>::deserialize(d)?;
    if let Some(r) = &route
        && (r.provider.is_empty() || r.model.is_empty())
    {
        return Err(de::Error::custom(
            "a configured reviewer route needs a non-empty provider and model; use null for the session's route",
        ));
    }
    Ok(route)
}

fn at_least_1<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    Whole::new("failures", 1, u64::from(u32::MAX))
        .below("would show the hint before any failure")
        .read_u32(d)
}

fn positive_ms<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Whole::new("milliseconds", 1, MAX_SAFE_INTEGER)
        .below("leaves no time for any request")
        .read(d)
}

/// What a reviewer failure does under the effective policy `ask` (AR-RES-FAIL-1).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum OnFailure {
    /// Consult downstream, then ask the human.
    #[default]
    Ask,
    /// Deny before downstream (fail closed).
    Deny,
}

/// The sampling temperature reviewer requests carry (AR-RES-CONFIG-1, AR-REVIEW-3): a number from
/// 0 to 2, or `provider-default`, which leaves the parameter out of every request, for routes
/// whose provider rejects an explicit temperature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Temperature {
    /// This number, from 0 to 2.
    Value(serde_json::Number),
    /// No temperature in the request: the provider's own.
    ProviderDefault,
}

impl Default for Temperature {
    fn default() -> Self {
        Temperature::Value(0.into())
    }
}

impl Temperature {
    /// What `provider-default` is written as.
    pub const PROVIDER_DEFAULT: &'static str = "provider-default";

    /// Whether it is the default, 0.
    pub fn is_default(&self) -> bool {
        self.sent() == Some(0.into())
    }

    /// The temperature a request carries: the number (an integral one written as an integer),
    /// `None` for `provider-default`.
    pub fn sent(&self) -> Option<serde_json::Number> {
        match self {
            Temperature::Value(n) => Some(match n.as_f64() {
                Some(x) if x.fract() == 0.0 => serde_json::Number::from(x as u64),
                _ => n.clone(),
            }),
            Temperature::ProviderDefault => None,
        }
    }
}

impl Serialize for Temperature {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Temperature::Value(n) => n.serialize(s),
            Temperature::ProviderDefault => s.serialize_str(Temperature::PROVIDER_DEFAULT),
        }
    }
}

/// What to give instead of a refused temperature.
const TEMPERATURE_WANTED: &str =
    "give a number from 0 to 2, or \"provider-default\" to leave it to the provider";

impl<'de> Deserialize<'de> for Temperature {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match &v {
            serde_json::Value::Number(n) => match n.as_f64() {
                Some(x) if x < 0.0 => Err(de::Error::custom(format!(
                    "{n} is below 0; {TEMPERATURE_WANTED}"
                ))),
                Some(x) if x > 2.0 => Err(de::Error::custom(format!(
                    "{n} is above 2; {TEMPERATURE_WANTED}"
                ))),
                Some(_) => Ok(Temperature::Value(n.clone())),
                None => Err(de::Error::custom(format!(
                    "{n} is not a number JSON can carry; {TEMPERATURE_WANTED}"
                ))),
            },
            serde_json::Value::String(t) if t == Temperature::PROVIDER_DEFAULT => {
                Ok(Temperature::ProviderDefault)
            }
            // The text the 0.2.x gate's configuration schema gives for any other value.
            other => Err(de::Error::custom(format!(
                "expected number | \"provider-default\" but got {other}"
            ))),
        }
    }
}

impl JsonSchema for Temperature {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Temperature".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A number from 0 to 2, or \"provider-default\" to leave the parameter out of every reviewer request.",
            "default": 0,
            "anyOf": [
                {"type": "number", "minimum": 0, "maximum": 2},
                {"const": "provider-default"}
            ]
        })
    }
}
