//! Counts (replicas, nodes, slots, processes) checked against the CRDs' limits: every one is an
//! int32 there, and a count of nodes or processes is at least 1. A value out of range is refused
//! with its field path and the limit, never wrapped or truncated.

use super::Error;

/// The largest int32, the CRDs' integer type.
pub(super) const INT32_MAX: u64 = i32::MAX as u64;

/// `value` as a u32 when `min <= value <= INT32_MAX`, else a message naming `path` and the limit.
/// The path is written out only for that message (`format_args!`): every job checks a few
/// counts, and a `format!` each was about 900 instructions a count within range.
pub(super) fn count_in_range(path: std::fmt::Arguments<'_>, value: u64, min: u64) -> Result<u32, Error> {
    if (min..=INT32_MAX).contains(&value) {
        Ok(value as u32)
    } else {
        Err(Error::OutOfRange { path: path.to_string(), value, min })
    }
}

/// A count given as a JSON value: a non-negative integer within the limits.
pub(super) fn count_value(path: &str, value: &serde_json::Value, min: u64) -> Result<u32, Error> {
    match value.as_u64() {
        Some(n) => count_in_range(format_args!("{path}"), n, min),
        None => Err(Error::NotACount { path: path.into(), value: value.clone(), min }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_refused_outside_int32_and_below_the_minimum() {
        let a = || format_args!("a");
        assert_eq!(count_in_range(a(), 1, 1).ok(), Some(1));
        assert_eq!(count_in_range(a(), INT32_MAX, 1).ok(), Some(i32::MAX as u32));
        assert!(count_in_range(a(), INT32_MAX + 1, 1).unwrap_err().to_string().contains("a is 2147483648"));
        assert!(count_in_range(a(), 0, 1).unwrap_err().to_string().contains("between 1 and 2147483647"));
        assert!(count_value("s", &serde_json::json!(-1), 1).unwrap_err().to_string().starts_with("s is -1"));
        assert!(count_value("s", &serde_json::json!(2.5), 1).is_err());
    }
}
