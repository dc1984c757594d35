//! A resource quantity (`500m`, `2k`, `1.5Gi`, `1e3`) read as the API server reads it:
//! apimachinery's `resource.ParseQuantity` (pkg/api/resource/quantity.go @v0.35.7:
//! `parseQuantityString` :161-275, `ParseQuantity` :278-388; the suffixes in suffix.go:108-133 and
//! `interpret` :180-198). Every reader of a quantity in the core goes through here, so `2k` CPUs
//! count the same in explain and in the upgrade.

use std::fmt;

/// How the quantity was written, which decides how a sum prints (`Quantity.Format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `1e3`, `5E-1`.
    DecimalExponent,
    /// `Ki`, `Mi`, ... `Ei`.
    BinarySI,
    /// No suffix, or `n`, `u`, `m`, `k`, `M`, `G`, `T`, `P`, `E`.
    DecimalSI,
}

/// Why a text is not a quantity, in apimachinery's words (quantity.go:155-157).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum QuantityError {
    /// `ErrFormatWrong`.
    FormatWrong,
    /// `ErrSuffix`.
    Suffix,
    /// Larger than this reader holds (about 10^29 units); apimachinery's arbitrary precision
    /// reads it.
    TooLarge,
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QuantityError::FormatWrong => {
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
            }
            QuantityError::Suffix => "unable to parse quantity's suffix",
            QuantityError::TooLarge => "quantity too large",
        })
    }
}

/// A parsed quantity: its exact value in billionths of a unit (rounded up, away from zero, to
/// the nano as `ParseQuantity` rounds, quantity.go:369-375) and its format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity {
    /// The value in billionths of a unit (`500m` is 500,000,000).
    pub nanos: i128,
    /// How it was written, which decides how a sum of it prints.
    pub format: Format,
}

const NANO: i128 = 1_000_000_000;
/// `maxAllowed`, the cap of a binary quantity (quantity.go:379-381): 2^63 - 1 units.
const MAX_ALLOWED_NANOS: i128 = (i64::MAX as i128) * NANO;

/// `num / den` rounded away from zero, for `den > 0`.
fn div_up(num: i128, den: i128) -> i128 {
    let q = num / den;
    if num % den == 0 {
        q
    } else {
        q + num.signum()
    }
}

impl Quantity {
    /// `ParseQuantity`.
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let (positive, num, denom, suffix) = split(text)?;
        let (base, exponent, mut format) = interpret(suffix).ok_or(QuantityError::Suffix)?;
        let digits = format!("{num}{denom}");
        let digits = digits.trim_start_matches('0');
        if digits.len() > 36 {
            return Err(QuantityError::TooLarge);
        }
        let mantissa: i128 =
            if digits.is_empty() { 0 } else { digits.parse().map_err(|_| QuantityError::FormatWrong)? };
        // The magnitude first: the cap and the format follow from it (quantity.go:365-388).
        let frac = i32::try_from(denom.len()).map_err(|_| QuantityError::TooLarge)?;
        let mut nanos = if base == 2 {
            // mantissa × 2^exponent × 10^9 / 10^frac.
            let scaled = mantissa.checked_mul(1i128 << exponent.unsigned_abs()).and_then(|m| m.checked_mul(NANO));
            let scaled = scaled.ok_or(QuantityError::TooLarge)?;
            match 10i128.checked_pow(frac.unsigned_abs()) {
                Some(den) => div_up(scaled, den),
                None => scaled.signum(),
            }
        } else {
            // mantissa × 10^(exponent - frac + 9).
            let power = exponent.checked_sub(frac).and_then(|p| p.checked_add(9)).ok_or(QuantityError::TooLarge)?;
            if power >= 0 {
                let mul = 10i128.checked_pow(power.unsigned_abs()).ok_or(QuantityError::TooLarge)?;
                mantissa.checked_mul(mul).ok_or(QuantityError::TooLarge)?
            } else {
                match 10i128.checked_pow(power.unsigned_abs()) {
                    Some(den) => div_up(mantissa, den),
                    // Smaller than a nano: a non-zero amount rounds up to one.
                    None => mantissa.signum(),
                }
            }
        };
        if format == Format::BinarySI && nanos > MAX_ALLOWED_NANOS {
            nanos = MAX_ALLOWED_NANOS;
        }
        // quantity.go:383-386: a binary amount between 0 and 1 prints as a decimal one.
        if format == Format::BinarySI && nanos > 0 && nanos < NANO {
            format = Format::DecimalSI;
        }
        Ok(Quantity { nanos: if positive { nanos } else { -nanos }, format })
    }

    /// `Quantity.Value()`: whole units, rounded up (away from zero).
    pub fn value(self) -> i128 {
        div_up(self.nanos, NANO)
    }

    /// `Quantity.MilliValue()`: thousandths, rounded up (away from zero).
    pub fn milli_value(self) -> i128 {
        div_up(self.nanos, NANO / 1000)
    }
}

/// `parseQuantityString`: the sign, the digits before and after the point, and the suffix.
fn split(text: &str) -> Result<(bool, &str, &str, &str), QuantityError> {
    if text.is_empty() {
        return Err(QuantityError::FormatWrong);
    }
    let (positive, rest) = match text.as_bytes()[0] {
        b'-' => (false, &text[1..]),
        b'+' => (true, &text[1..]),
        _ => (true, text),
    };
    let digits_end = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let n = digits_end(rest);
    let (num, rest) = rest.split_at(n);
    let (denom, rest) = match rest.strip_prefix('.') {
        Some(after) => after.split_at(digits_end(after)),
        None => ("", rest),
    };
    // The suffix: letters of `eEinumkKMGTP`, then an optional sign and digits, then nothing.
    let letters = rest.find(|c: char| !"eEinumkKMGTP".contains(c)).unwrap_or(rest.len());
    let after = &rest[letters..];
    let after = after.strip_prefix(['-', '+']).unwrap_or(after);
    if !after.bytes().all(|b| b.is_ascii_digit()) {
        return Err(QuantityError::FormatWrong);
    }
    Ok((positive, num, denom, rest))
}

/// `suffixHandler.interpret`: the base, the exponent and the format a suffix stands for.
fn interpret(suffix: &str) -> Option<(u8, i32, Format)> {
    let (base, exponent, format) = match suffix {
        "n" => (10, -9, Format::DecimalSI),
        "u" => (10, -6, Format::DecimalSI),
        "m" => (10, -3, Format::DecimalSI),
        "" => (10, 0, Format::DecimalSI),
        "k" => (10, 3, Format::DecimalSI),
        "M" => (10, 6, Format::DecimalSI),
        "G" => (10, 9, Format::DecimalSI),
        "T" => (10, 12, Format::DecimalSI),
        "P" => (10, 15, Format::DecimalSI),
        "E" => (10, 18, Format::DecimalSI),
        "Ki" => (2, 10, Format::BinarySI),
        "Mi" => (2, 20, Format::BinarySI),
        "Gi" => (2, 30, Format::BinarySI),
        "Ti" => (2, 40, Format::BinarySI),
        "Pi" => (2, 50, Format::BinarySI),
        "Ei" => (2, 60, Format::BinarySI),
        _ => {
            let exp: i64 = suffix.strip_prefix(['e', 'E']).filter(|e| !e.is_empty())?.parse().ok()?;
            // Beyond ±60 the value leaves what this reader holds, or rounds to a nano, either way.
            (10, i32::try_from(exp.clamp(-60, 60)).ok()?, Format::DecimalExponent)
        }
    };
    Some((base, exponent, format))
}

#[cfg(test)]
mod tests {
    use super::Format::*;
    use super::*;

    /// apimachinery's own table, `TestQuantityParse` (pkg/api/resource/quantity_test.go:272-390
    /// @v0.35.7), transcribed: the input, its value in nanos (`decQuantity(m, e, f)` is m × 10^e)
    /// and its format.
    const PARSED: &[(&str, i128, Format)] = &[
        ("0", 0, DecimalSI),
        ("0n", 0, DecimalSI),
        ("0u", 0, DecimalSI),
        ("0m", 0, DecimalSI),
        ("0Ki", 0, BinarySI),
        ("0k", 0, DecimalSI),
        ("0Mi", 0, BinarySI),
        ("0M", 0, DecimalSI),
        ("0Gi", 0, BinarySI),
        ("0G", 0, DecimalSI),
        ("0Ti", 0, BinarySI),
        ("0T", 0, DecimalSI),
        ("1", 1000000000, DecimalSI),
        ("1Ki", 1024000000000, BinarySI),
        ("8Ki", 8192000000000, BinarySI),
        ("7Mi", 7340032000000000, BinarySI),
        ("6Gi", 6442450944000000000, BinarySI),
        ("5Ti", 5497558138880000000000, BinarySI),
        ("4Pi", 4503599627370496000000000, BinarySI),
        ("3Ei", 3458764513820540928000000000, BinarySI),
        ("10Ti", 10995116277760000000000, BinarySI),
        ("100Ti", 109951162777600000000000, BinarySI),
        ("5n", 5, DecimalSI),
        ("4u", 4000, DecimalSI),
        ("3m", 3000000, DecimalSI),
        ("9", 9000000000, DecimalSI),
        ("8k", 8000000000000, DecimalSI),
        ("50k", 50000000000000, DecimalSI),
        ("7M", 7000000000000000, DecimalSI),
        ("6G", 6000000000000000000, DecimalSI),
        ("5T", 5000000000000000000000, DecimalSI),
        ("40T", 40000000000000000000000, DecimalSI),
        ("300T", 300000000000000000000000, DecimalSI),
        ("2P", 2000000000000000000000000, DecimalSI),
        ("1E", 1000000000000000000000000000, DecimalSI),
        ("1E-3", 1000000, DecimalExponent),
        ("1e3", 1000000000000, DecimalExponent),
        ("1E6", 1000000000000000, DecimalExponent),
        ("1e9", 1000000000000000000, DecimalExponent),
        ("1E12", 1000000000000000000000, DecimalExponent),
        ("1e15", 1000000000000000000000000, DecimalExponent),
        ("1E18", 1000000000000000000000000000, DecimalExponent),
        ("1e14", 100000000000000000000000, DecimalExponent),
        ("1e13", 10000000000000000000000, DecimalExponent),
        ("1e3", 1000000000000, DecimalExponent),
        ("100.035k", 100035000000000, DecimalSI),
        ("0.001", 1000000, DecimalSI),
        ("0.0005k", 500000000, DecimalSI),
        ("0.005", 5000000, DecimalSI),
        ("0.05", 50000000, DecimalSI),
        ("0.5", 500000000, DecimalSI),
        ("0.00050k", 500000000, DecimalSI),
        ("0.00500", 5000000, DecimalSI),
        ("0.05000", 50000000, DecimalSI),
        ("0.50000", 500000000, DecimalSI),
        ("0.5e0", 500000000, DecimalExponent),
        ("0.5e-1", 50000000, DecimalExponent),
        ("0.5e-2", 5000000, DecimalExponent),
        ("0.5e0", 500000000, DecimalExponent),
        ("10.035M", 10035000000000000, DecimalSI),
        ("1.2e3", 1200000000000, DecimalExponent),
        ("1.3E+6", 1300000000000000, DecimalExponent),
        ("1.40e9", 1400000000000000000, DecimalExponent),
        ("1.53E12", 1530000000000000000000, DecimalExponent),
        ("1.6e15", 1600000000000000000000000, DecimalExponent),
        ("1.7E18", 1700000000000000000000000000, DecimalExponent),
        ("9.01", 9010000000, DecimalSI),
        ("8.1k", 8100000000000, DecimalSI),
        ("7.123456M", 7123456000000000, DecimalSI),
        ("6.987654321G", 6987654321000000000, DecimalSI),
        ("5.444T", 5444000000000000000000, DecimalSI),
        ("40.1T", 40100000000000000000000, DecimalSI),
        ("300.2T", 300200000000000000000000, DecimalSI),
        ("2.5P", 2500000000000000000000000, DecimalSI),
        ("1.01E", 1010000000000000000000000000, DecimalSI),
        ("3.001n", 4, DecimalSI),
        ("1.1E-9", 2, DecimalExponent),
        ("0.0000000001", 1, DecimalSI),
        ("0.0000000005", 1, DecimalSI),
        ("0.00000000050", 1, DecimalSI),
        ("0.5e-9", 1, DecimalExponent),
        ("0.9n", 1, DecimalSI),
        ("0.00000012345", 124, DecimalSI),
        ("0.00000012354", 124, DecimalSI),
        ("9Ei", MAX_ALLOWED_NANOS, BinarySI),
        ("9223372036854775807Ki", MAX_ALLOWED_NANOS, BinarySI),
        ("12E", 12000000000000000000000000000, DecimalSI),
        ("100.035Ki", 102435840000000, BinarySI),
        ("0.5Mi", 524288000000000, BinarySI),
        ("0.05Gi", 53687091200000000, BinarySI),
        ("0.025Ti", 27487790694400000000, BinarySI),
        ("0.000000000001Ki", 2, DecimalSI),
        (".001", 1000000, DecimalSI),
        (".0001k", 100000000, DecimalSI),
        ("1.", 1000000000, DecimalSI),
        ("1.G", 1000000000000000000, DecimalSI),
    ];

    #[test]
    fn apimachinerys_parse_table() {
        assert_eq!(Quantity::parse(""), Err(QuantityError::FormatWrong));
        for &(input, nanos, format) in PARSED {
            assert_eq!(Quantity::parse(input), Ok(Quantity { nanos, format }), "{input}");
            // quantity_test.go:486-529: the same with a sign.
            assert_eq!(Quantity::parse(&format!("-{input}")), Ok(Quantity { nanos: -nanos, format }), "-{input}");
            assert_eq!(Quantity::parse(&format!("+{input}")), Ok(Quantity { nanos, format }), "+{input}");
        }
    }

    /// quantity_test.go:533-552: what is not a quantity.
    #[test]
    fn apimachinerys_invalid_table() {
        for input in ["1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 "] {
            assert!(Quantity::parse(input).is_err(), "{input}");
        }
    }

    /// `Value()` and `MilliValue()` round up: the integer the Trainer plugins read.
    #[test]
    fn whole_and_milli_values_round_up() {
        let q = |s: &str| Quantity::parse(s).unwrap();
        assert_eq!((q("2k").value(), q("500m").value(), q("1.5").value(), q("1Ki").value()), (2000, 1, 2, 1024));
        assert_eq!((q("1n").milli_value(), q("2k").milli_value(), q("-1.5m").milli_value()), (1, 2_000_000, -2));
    }
}
