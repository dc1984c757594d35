//! The integer the controller reads from a resource quantity: `resource.Quantity.Value()`, which
//! rounds up (`500m` CPU is 1, `1.5` is 2). Used for GPUs and CPUs per node.

use crate::model::{Number, Value};

/// `None` for text that is not a Kubernetes quantity.
pub fn ceil_value(q: &Value) -> Option<u64> {
    match q {
        Value::Number(Number::Int(n)) => u64::try_from(*n).ok(),
        Value::Number(Number::UInt(n)) => Some(*n),
        Value::Number(Number::Float(x)) if x.is_finite() && *x >= 0.0 => Some(x.ceil() as u64),
        Value::String(s) => parse(s.trim()),
        _ => None,
    }
}

fn parse(s: &str) -> Option<u64> {
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    if number.is_empty() || number.matches('.').count() > 1 {
        return None;
    }
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    // Exact arithmetic in thousandths-of-a-unit is enough: the smallest suffix we accept is `m`.
    let mantissa: u128 = format!("{whole}{frac}").parse().ok()?;
    let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
    // Decimal exponents (`1e3`, `5E-1`) are quantities too.
    if let Some(exp) = suffix.strip_prefix(['e', 'E']) {
        let exp: i32 = exp.parse().ok().filter(|e: &i32| e.abs() <= 18)?;
        let pow = 10u128.pow(exp.unsigned_abs());
        let (numerator, denominator) = if exp >= 0 { (mantissa * pow, scale) } else { (mantissa, scale * pow) };
        return u64::try_from(numerator.div_ceil(denominator)).ok();
    }
    let (mul, div): (u128, u128) = match suffix {
        "" => (1, 1),
        "m" => (1, 1000),
        "k" => (1_000, 1),
        "M" => (1_000_000, 1),
        "G" => (1_000_000_000, 1),
        "T" => (1_000_000_000_000, 1),
        "Ki" => (1 << 10, 1),
        "Mi" => (1 << 20, 1),
        "Gi" => (1 << 30, 1),
        "Ti" => (1 << 40, 1),
        _ => return None,
    };
    let numerator = mantissa.checked_mul(mul)?;
    let denominator = scale.checked_mul(div)?;
    u64::try_from(numerator.div_ceil(denominator)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_up_like_quantity_value() {
        let v = |s: &str| ceil_value(&Value::from(s));
        assert_eq!(v("500m"), Some(1));
        assert_eq!(v("1.5"), Some(2));
        assert_eq!(v("4"), Some(4));
        assert_eq!(v("2000m"), Some(2));
        assert_eq!(v("1k"), Some(1000));
        assert_eq!(ceil_value(&Value::from(8u32)), Some(8));
        assert_eq!(v("1e3"), Some(1000));
        assert_eq!(v("5E-1"), Some(1));
        assert_eq!(v("1e99"), None);
        assert_eq!(v("four"), None);
        assert_eq!(v(""), None);
        assert_eq!(v("1.2.3"), None);
    }
}
