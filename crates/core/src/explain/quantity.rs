//! The integer the controller reads from a resource quantity: `resource.Quantity.Value()`, which
//! rounds up (`500m` CPU is 1, `1.5` is 2). Used for GPUs and CPUs per node.
//! The text is read by `k8s::quantity`, the core's one quantity parser.

use crate::k8s::quantity::{Format, Quantity};
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
    u64::try_from(Quantity::parse(s).ok()?.value()).ok()
}

/// An exact quantity in billionths of a unit, and whether it was written with a binary suffix
/// (`Ki`, `Mi`, ...): what `resource.Quantity` keeps to add quantities and print the sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Exact {
    pub nanos: i128,
    pub binary: bool,
}

const NANO: i128 = 1_000_000_000;

impl Exact {
    /// `None` for text that is not a Kubernetes quantity.
    pub(crate) fn parse(q: &Value) -> Option<Exact> {
        let text = match q {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            _ => return None,
        };
        let q = Quantity::parse(&text).ok()?;
        let (nanos, binary) = (q.nanos, q.format == Format::BinarySI);
        Some(Exact { nanos, binary })
    }

    /// `Quantity.Add`: the first non-zero operand gives the format.
    pub(crate) fn plus(self, other: Exact) -> Exact {
        let binary = if self.nanos == 0 { other.binary } else { self.binary };
        Exact { nanos: self.nanos.saturating_add(other.nanos), binary }
    }

    pub(crate) fn times(self, n: u32) -> Exact {
        Exact { nanos: self.nanos.saturating_mul(i128::from(n)), ..self }
    }

    /// The canonical text `Quantity.String()` prints: the largest binary suffix that divides a
    /// whole byte count, else the largest decimal exponent (a multiple of 3) with a whole mantissa.
    pub(crate) fn text(self) -> String {
        if self.binary && self.nanos % NANO == 0 {
            let whole = self.nanos / NANO;
            for (suffix, size) in [("Ti", 1i128 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)] {
                if whole != 0 && whole % size == 0 {
                    return format!("{}{suffix}", whole / size);
                }
            }
            return whole.to_string();
        }
        for (suffix, size) in [
            ("T", NANO * 1_000_000_000_000),
            ("G", NANO * 1_000_000_000),
            ("M", NANO * 1_000_000),
            ("k", NANO * 1_000),
            ("", NANO),
            ("m", NANO / 1000),
            ("u", NANO / 1_000_000),
            ("n", 1),
        ] {
            if self.nanos != 0 && self.nanos % size == 0 {
                return format!("{}{suffix}", self.nanos / size);
            }
        }
        "0".into()
    }
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

    #[test]
    fn sums_print_as_kubernetes_prints_them() {
        let q = |s: &str| Exact::parse(&Value::from(s)).unwrap();
        assert_eq!(q("500m").times(2).plus(q("250m")).text(), "1250m");
        assert_eq!(q("1Gi").times(2).plus(q("512Mi")).text(), "2560Mi");
        assert_eq!(q("1").times(32).text(), "32");
        assert_eq!(q("1Gi").times(2).text(), "2Gi");
        assert_eq!(q("2000m").text(), "2");
        assert_eq!(Exact::default().plus(q("1Gi")).text(), "1Gi");
        assert_eq!(Exact::parse(&Value::from("lots")), None);
    }
}
