//! Why a model did not fit, as a typed value: the kind of mistake serde's `de::Error` methods
//! name (a missing field, a value of the wrong type, out of range, ...) with what each carries.
//! [`crate::field_error`] turns it into the API server's words by matching on the kind; its
//! `Display` prints the message serde_json's `Error` printed for the same mistake, word for word.

use serde::de::{self, Expected, Unexpected};
use std::fmt;

/// What serde found where the model wanted something else: serde's `de::Unexpected`, owned.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Found {
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Char(char),
    Str(String),
    Bytes,
    Unit,
    Option,
    NewtypeStruct,
    Seq,
    Map,
    Enum,
    UnitVariant,
    NewtypeVariant,
    TupleVariant,
    StructVariant,
    Other(String),
}

impl Found {
    fn of(unexpected: Unexpected<'_>) -> Found {
        match unexpected {
            Unexpected::Bool(b) => Found::Bool(b),
            Unexpected::Unsigned(u) => Found::Unsigned(u),
            Unexpected::Signed(i) => Found::Signed(i),
            Unexpected::Float(f) => Found::Float(f),
            Unexpected::Char(c) => Found::Char(c),
            Unexpected::Str(s) => Found::Str(s.to_string()),
            Unexpected::Bytes(_) => Found::Bytes,
            Unexpected::Unit => Found::Unit,
            Unexpected::Option => Found::Option,
            Unexpected::NewtypeStruct => Found::NewtypeStruct,
            Unexpected::Seq => Found::Seq,
            Unexpected::Map => Found::Map,
            Unexpected::Enum => Found::Enum,
            Unexpected::UnitVariant => Found::UnitVariant,
            Unexpected::NewtypeVariant => Found::NewtypeVariant,
            Unexpected::TupleVariant => Found::TupleVariant,
            Unexpected::StructVariant => Found::StructVariant,
            Unexpected::Other(s) => Found::Other(s.to_string()),
        }
    }

    /// Back to serde's own type, whose `Display` is serde's wording (``integer `5` ``).
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Found::Bool(b) => Unexpected::Bool(*b),
            Found::Unsigned(u) => Unexpected::Unsigned(*u),
            Found::Signed(i) => Unexpected::Signed(*i),
            Found::Float(f) => Unexpected::Float(*f),
            Found::Char(c) => Unexpected::Char(*c),
            Found::Str(s) => Unexpected::Str(s),
            Found::Bytes => Unexpected::Bytes(&[]),
            Found::Unit => Unexpected::Unit,
            Found::Option => Unexpected::Option,
            Found::NewtypeStruct => Unexpected::NewtypeStruct,
            Found::Seq => Unexpected::Seq,
            Found::Map => Unexpected::Map,
            Found::Enum => Unexpected::Enum,
            Found::UnitVariant => Unexpected::UnitVariant,
            Found::NewtypeVariant => Unexpected::NewtypeVariant,
            Found::TupleVariant => Unexpected::TupleVariant,
            Found::StructVariant => Unexpected::StructVariant,
            Found::Other(s) => Unexpected::Other(s),
        }
    }
}

/// A float as serde_json prints it (its `Number`'s shortest form: `1.5`, `1e300`).
pub(crate) fn float_text(f: f64) -> String {
    serde_json::Number::from_f64(f).map_or_else(|| f.to_string(), |n| n.to_string())
}

/// serde_json's wording of what was found (its `JsonUnexpected`): `null`, ``integer `5` ``,
/// `string "x"`, `map`.
impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Unit => f.write_str("null"),
            Found::Float(x) => write!(f, "floating point `{}`", float_text(*x)),
            other => other.unexpected().fmt(f),
        }
    }
}

/// A model that did not fit: its [`Misfit`], boxed so that every visitor's `Result` stays one
/// pointer wide, as with serde_json's error (unboxed, the converter module grew by 5.8 KB
/// gzipped).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Error(Box<Misfit>);

impl Error {
    /// What kind of mistake it is.
    pub(crate) fn kind(&self) -> &Misfit {
        &self.0
    }

    /// The error with what the model asked for, when it is a value of the wrong type or out of
    /// range that does not say yet: the innermost method that read the value says it first.
    pub(crate) fn wanting(mut self, kind: Wanted) -> Error {
        if let Misfit::InvalidType { wanted: wanted @ None, .. } | Misfit::InvalidValue { wanted: wanted @ None, .. } =
            &mut *self.0
        {
            *wanted = Some(kind);
        }
        self
    }
}

impl From<Misfit> for Error {
    fn from(misfit: Misfit) -> Error {
        Error(Box::new(misfit))
    }
}

/// What the model asked for where it found something else: the kind of the `deserialize_*`
/// method it called (`deserialize_u32`, `deserialize_string`, `deserialize_map`, ...), recorded
/// by the deserializer (`model::tracked`) that knows which one it was. serde's `Expected` says
/// the same only as a description (`u32`, `a string`, `struct EnvVar`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wanted {
    Boolean,
    /// An integer of `bits` bits (`u32`: 32, not signed).
    Integer {
        bits: u8,
        signed: bool,
    },
    /// A floating-point number (`f32`, `f64`).
    Number,
    /// Text (`String`, `&str`, `char`).
    String,
    /// A sequence (`Vec`, a tuple).
    Array,
    /// A map or a struct.
    Object,
}

impl Wanted {
    /// Its OpenAPI type, as the API server names it in `must be of type integer`.
    pub(crate) fn api_type(self) -> &'static str {
        match self {
            Wanted::Boolean => "boolean",
            Wanted::Integer { .. } => "integer",
            Wanted::Number => "number",
            Wanted::String => "string",
            Wanted::Array => "array",
            Wanted::Object => "object",
        }
    }
}

/// The kind of mistake: one variant per method of serde's `de::Error`. The expected side is
/// serde's `Expected`, which serde offers only as a description (`u32`, `a string`,
/// `struct EnvVar`), so it is kept as that description for serde's message; what the model
/// asked for is `wanted`, typed, set by the deserializer's method (`None` where it asked for
/// any value, a unit or an enum).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Misfit {
    /// A value of the wrong type: `replicas: "two"` for a `u32`.
    InvalidType { found: Found, expected: String, wanted: Option<Wanted> },
    /// A value of the right type out of range: `replicas: -1` for a `u32`.
    InvalidValue { found: Found, expected: String, wanted: Option<Wanted> },
    /// A sequence of the wrong length (a struct written as a list).
    InvalidLength { len: usize, expected: String },
    /// An enum's value that names none of its variants.
    UnknownVariant { variant: String, expected: &'static [&'static str] },
    /// A field a struct that denies unknown fields does not have.
    UnknownField { field: String, expected: &'static [&'static str] },
    /// A required field that is not there.
    MissingField(&'static str),
    /// A field written twice.
    DuplicateField(&'static str),
    /// Any other complaint, in its own words.
    Custom(String),
}

/// serde's `OneOf`: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
pub(crate) struct OneOf(pub(crate) &'static [&'static str]);

impl fmt::Display for OneOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [] => Ok(()),
            [one] => write!(f, "`{one}`"),
            [a, b] => write!(f, "`{a}` or `{b}`"),
            names => {
                f.write_str("one of ")?;
                for (i, name) in names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{name}`")?;
                }
                Ok(())
            }
        }
    }
}

/// serde's default message of each method, word for word (serde_core's `de::Error`), with what
/// was found worded as serde_json words it.
impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Misfit::InvalidType { found, expected, .. } => write!(f, "invalid type: {found}, expected {expected}"),
            Misfit::InvalidValue { found, expected, .. } => write!(f, "invalid value: {found}, expected {expected}"),
            Misfit::InvalidLength { len, expected } => write!(f, "invalid length {len}, expected {expected}"),
            Misfit::UnknownVariant { variant, expected: [] } => {
                write!(f, "unknown variant `{variant}`, there are no variants")
            }
            Misfit::UnknownVariant { variant, expected } => {
                write!(f, "unknown variant `{variant}`, expected {}", OneOf(expected))
            }
            Misfit::UnknownField { field, expected: [] } => write!(f, "unknown field `{field}`, there are no fields"),
            Misfit::UnknownField { field, expected } => {
                write!(f, "unknown field `{field}`, expected {}", OneOf(expected))
            }
            Misfit::MissingField(field) => write!(f, "missing field `{field}`"),
            Misfit::DuplicateField(field) => write!(f, "duplicate field `{field}`"),
            Misfit::Custom(message) => f.write_str(message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(message: T) -> Self {
        Misfit::Custom(message.to_string()).into()
    }

    #[cold]
    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Misfit::InvalidType { found: Found::of(unexpected), expected: expected.to_string(), wanted: None }.into()
    }

    #[cold]
    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Misfit::InvalidValue { found: Found::of(unexpected), expected: expected.to_string(), wanted: None }.into()
    }

    #[cold]
    fn invalid_length(len: usize, expected: &dyn Expected) -> Self {
        Misfit::InvalidLength { len, expected: expected.to_string() }.into()
    }

    #[cold]
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Misfit::UnknownVariant { variant: variant.to_string(), expected }.into()
    }

    #[cold]
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Misfit::UnknownField { field: field.to_string(), expected }.into()
    }

    #[cold]
    fn missing_field(field: &'static str) -> Self {
        Misfit::MissingField(field).into()
    }

    #[cold]
    fn duplicate_field(field: &'static str) -> Self {
        Misfit::DuplicateField(field).into()
    }
}
