//! The counts the CRDs declare `type: integer, format: int32` (a V1 replica spec's `replicas`, a
//! TrainJob's and a runtime's `numNodes`), held as `u32`. A `u32` also holds 2147483648 to
//! 4294967295, which no int32 field takes: read through [`count`], such a value is refused when
//! the object is read, with the same field error as one past `u32` (`Invalid value: 3000000000:
//! must fit in an int32`), so explain, validate and migrate refuse it alike, in one place,
//! before any count is summed or converted.

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;

/// `deserialize_with` for an optional count: absent or `null` is `None`, a number must be an int32
/// of at least 0.
pub(crate) fn count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    Option::<Count>::deserialize(deserializer).map(|count| count.map(|Count(n)| n))
}

/// A count within `0..=i32::MAX`.
struct Count(u32);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        // Asked for as a `u32`, so the reader names the type wanted (an unsigned 32-bit integer:
        // a negative value is "must be greater than or equal to 0", a larger one "must fit in an
        // int32") as it does for a plain `u32`.
        deserializer.deserialize_u32(CountVisitor)
    }
}

struct CountVisitor;

impl Visitor<'_> for CountVisitor {
    type Value = Count;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer from 0 to 2147483647")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Count, E> {
        match u32::try_from(n) {
            Ok(n) if i32::try_from(n).is_ok() => Ok(Count(n)),
            _ => Err(E::invalid_value(de::Unexpected::Unsigned(n), &self)),
        }
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Count, E> {
        match u64::try_from(n) {
            Ok(n) => self.visit_u64(n),
            Err(_) => Err(E::invalid_value(de::Unexpected::Signed(n), &self)),
        }
    }
}
