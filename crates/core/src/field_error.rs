//! A model's misfit (`model::tracked::Error`, the kind of mistake serde's `de::Error` methods
//! name) in the words the API server uses for the same mistake (apimachinery's `field.Error`:
//! `<path>: Invalid value: …`, `Required value`, and kubectl's strict decoding
//! `unknown field "<path>"`), so a reader sees the field and what the API accepts there, never a
//! Rust type (`expected u32`). Each kind is matched as the typed value it is, and the OpenAPI
//! type is named from what the model asked for (`model::tracked::Wanted`, the deserializer's
//! method), never from serde's description of it (`u32`, `a string`), which is only printed
//! where the model asked for no one kind.

use crate::k8s::field::Rejection;
#[cfg(feature = "explain")]
use crate::{
    k8s::field::{ErrorType, Path},
    model::tracked::{Error, Found, Misfit, Wanted},
};

#[cfg(feature = "explain")]
impl Found {
    /// The JSON type of what was found, as the API server names it in `Invalid value: "object"`;
    /// serde's own words for what JSON cannot hold.
    fn json_type(&self) -> String {
        match self {
            Found::Map => "object",
            Found::Seq => "array",
            Found::Str(_) | Found::Char(_) => "string",
            Found::Unsigned(_) | Found::Signed(_) => "integer",
            Found::Float(_) => "number",
            Found::Bool(_) => "boolean",
            Found::Unit => "null",
            other => return other.to_string(),
        }
        .to_string()
    }

    /// The value itself, as serde writes it between backquotes (``integer `-1` `` → `-1`); serde's
    /// whole phrase for what it writes without one (`string "x"`, `map`).
    fn value(&self) -> String {
        match self {
            Found::Bool(b) => b.to_string(),
            Found::Unsigned(u) => u.to_string(),
            Found::Signed(i) => i.to_string(),
            Found::Char(c) => c.to_string(),
            Found::Float(f) => crate::model::tracked::float_text(*f),
            other => other.to_string(),
        }
    }
}

/// One field error: `path` as serde_path_to_error prints it (`spec.trainer.numNodes`, `.` for
/// the object itself) and the model's error, as the API server's typed error. A complaint with
/// no API-server counterpart keeps serde's message (`ErrorType::Message`).
#[cfg(feature = "explain")]
pub(crate) fn kubernetes(path: &str, error: &Error) -> Rejection {
    let path = path.trim_end_matches('.');
    let at = |suffix: &str| match (path, suffix) {
        ("", s) => s.to_string(),
        (p, "") => p.to_string(),
        (p, s) => format!("{p}.{s}"),
    };
    let here = || Path::parse(path);
    match error.kind() {
        Misfit::MissingField(field) => Rejection::required(&at(field)),
        // The path of a key the struct does not know ends at that key already.
        Misfit::UnknownField { .. } => {
            Rejection::new(ErrorType::UnknownField, Path::root(), format!("unknown field \"{path}\""))
        }
        Misfit::InvalidType { found, expected, wanted } => {
            let found = found.json_type();
            let detail = match wanted {
                Some(want) => format!("\"{found}\": must be of type {}", want.api_type()),
                None => format!("\"{found}\": expected {expected}"),
            };
            Rejection::new(ErrorType::TypeInvalid, here(), detail)
        }
        Misfit::InvalidValue { found, expected, wanted } => {
            let value = found.value();
            let detail = match (wanted, found) {
                (Some(Wanted::Integer { signed: false, .. }), Found::Signed(n)) if *n < 0 => {
                    format!("{value}: must be greater than or equal to 0")
                }
                (Some(Wanted::Integer { bits, .. }), _) => format!("{value}: must fit in an int{bits}"),
                _ => format!("{value}: expected {}", expected.trim()),
            };
            Rejection::new(ErrorType::Invalid, here(), detail)
        }
        Misfit::UnknownVariant { variant, expected } => {
            let allowed = match expected {
                [] => String::new(),
                [one] => format!(": supported values: \"{one}\""),
                [a, b] => format!(": supported values: \"{a}\" or \"{b}\""),
                names => {
                    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                    format!(": supported values: {}", quoted.join(", "))
                }
            };
            Rejection::new(ErrorType::NotSupported, here(), format!("\"{variant}\"{allowed}"))
        }
        Misfit::InvalidLength { .. } | Misfit::DuplicateField(_) | Misfit::Custom(_) => {
            Rejection::new(ErrorType::Message, here(), error.to_string())
        }
    }
}

/// A field error as a reader's error line says it: `<path>: <reason>`; on the object itself,
/// `the object: <reason>` for a typed error and the sentence alone for the others.
pub fn said(error: &Rejection) -> String {
    match (error.path.steps.is_empty(), error.ty.word()) {
        (true, Some(_)) => format!("the object: {}", error.reason()),
        (true, None) => error.reason(),
        (false, _) => error.to_string(),
    }
}

#[cfg(all(test, feature = "explain"))]
mod tests {
    use super::*;
    use crate::model::pod::PodSpec;
    use crate::model::v1::ReplicaSpec;
    use crate::model::ObjectMeta;
    use serde_json::json;

    /// `json` read as a `T` at `at` (as the migrator and explain read a user's object): the
    /// rejection, as its type and the reader's line.
    fn refused<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        at: &str,
        json: serde_json::Value,
    ) -> (ErrorType, String) {
        let error = crate::model::tracked::deserialize::<T>(&json).expect_err("refused");
        let rejection = kubernetes(&format!("{at}.{}", error.path()), error.inner());
        (rejection.ty, said(&rejection))
    }

    fn replica(replicas: serde_json::Value) -> serde_json::Value {
        json!({"replicas": replicas, "template": {"spec": {"containers": [{"name": "a"}]}}})
    }

    /// Read through the real models: each kind of mistake in the API server's words, with no
    /// Rust type (`u32`) in them.
    #[test]
    fn serde_kinds_become_the_api_servers_words() {
        let master = "spec.pytorchReplicaSpecs.Master";
        let cases = [
            (
                refused::<ReplicaSpec>(master, replica(json!(-1))),
                "spec.pytorchReplicaSpecs.Master.replicas: Invalid value: -1: must be greater than or equal to 0",
            ),
            (
                refused::<ReplicaSpec>(master, replica(json!(4294967296u64))),
                "spec.pytorchReplicaSpecs.Master.replicas: Invalid value: 4294967296: must fit in an int32",
            ),
            (
                refused::<ReplicaSpec>(master, replica(json!("two"))),
                "spec.pytorchReplicaSpecs.Master.replicas: Invalid value: \"string\": must be of type integer",
            ),
            (
                refused::<ObjectMeta>("metadata", json!({"name": {"a": "b"}})),
                "metadata.name: Invalid value: \"object\": must be of type string",
            ),
            (refused::<ObjectMeta>("", json!("text")), "the object: Invalid value: \"string\": must be of type object"),
            (
                refused::<PodSpec>("spec", json!({"containers": [{"name": "a", "env": [{"value": "b"}]}]})),
                "spec.containers[0].env[0].name: Required value",
            ),
            (
                refused::<PodSpec>("spec", json!({"containers": [{"name": null}]})),
                "spec.containers[0].name: Invalid value: \"null\": must be of type string",
            ),
        ];
        for ((_, got), want) in cases {
            assert_eq!(got, want);
        }
    }

    /// What a user wrote is never read as serde's sentence: a string holding serde's own words
    /// (`, expected `, ` at line `) cut the message where the text was read (main before this,
    /// `replicas: "a, expected b"` said `Invalid value: "string": expected b", expected u32`).
    #[test]
    fn a_value_that_reads_like_serdes_words_is_only_a_value() {
        for text in ["a, expected b", "x at line 5 column 2", "`quoted`"] {
            let (ty, got) = refused::<ReplicaSpec>("spec.r.M", replica(json!(text)));
            assert_eq!(ty, ErrorType::TypeInvalid);
            assert_eq!(got, "spec.r.M.replicas: Invalid value: \"string\": must be of type integer");
        }
    }

    /// The type named is the one the model asked the deserializer for, never serde's description
    /// of it: a count read as a `u32` whose visitor describes itself in other words (`a string of
    /// digits`, `u8`) is still an integer of 32 bits (read from the text, it was a string, and
    /// out of range of an int8).
    #[test]
    fn the_type_is_what_the_model_asked_for_not_its_description() {
        #[derive(Debug)]
        struct Count(#[allow(dead_code)] u32);
        impl<'de> serde::Deserialize<'de> for Count {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
                struct Digits;
                impl serde::de::Visitor<'_> for Digits {
                    type Value = Count;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("a string of digits")
                    }
                    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Count, E> {
                        u32::try_from(n)
                            .map(Count)
                            .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &"u8"))
                    }
                }
                d.deserialize_u32(Digits)
            }
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Spec {
            count: Count,
        }
        assert_eq!(
            refused::<Spec>("spec", json!({"count": "two"})).1,
            "spec.count: Invalid value: \"string\": must be of type integer"
        );
        assert_eq!(
            refused::<Spec>("spec", json!({"count": 4294967296u64})).1,
            "spec.count: Invalid value: 4294967296: must fit in an int32"
        );
    }

    /// No model today denies unknown fields or holds an enum, so these kinds are read through a
    /// struct that does.
    #[test]
    fn unknown_fields_and_variants_in_the_api_servers_words() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Strict {
            trainer: Option<u32>,
            policy: Option<Policy>,
            three: Option<Three>,
        }
        #[derive(serde::Deserialize, Debug)]
        enum Policy {
            Always,
            Never,
        }
        #[derive(serde::Deserialize, Debug)]
        enum Three {
            A,
            B,
            C,
        }
        assert_eq!(
            refused::<Strict>("spec", json!({"trainr": 1})),
            (ErrorType::UnknownField, "unknown field \"spec.trainr\"".to_string())
        );
        assert_eq!(
            refused::<Strict>("spec", json!({"policy": "Sometimes"})).1,
            "spec.policy: Unsupported value: \"Sometimes\": supported values: \"Always\" or \"Never\""
        );
        assert_eq!(
            refused::<Strict>("spec", json!({"three": "D"})).1,
            "spec.three: Unsupported value: \"D\": supported values: \"A\", \"B\", \"C\""
        );
    }

    /// The type is set from the kind, so no caller reads the words again: a type mismatch blocks
    /// the CRD rules as the API server's `TypeInvalid` does.
    #[test]
    fn each_kind_has_its_type() {
        let ty = |misfit: Misfit| kubernetes("spec.x", &misfit.into()).ty;
        let expected = || "u32".to_string();
        let wanted = Some(Wanted::Integer { bits: 32, signed: false });
        assert_eq!(
            ty(Misfit::InvalidType { found: Found::Str("two".into()), expected: expected(), wanted }),
            ErrorType::TypeInvalid
        );
        assert_eq!(
            ty(Misfit::InvalidValue { found: Found::Signed(-1), expected: expected(), wanted }),
            ErrorType::Invalid
        );
        assert_eq!(ty(Misfit::MissingField("image")), ErrorType::Required);
        assert_eq!(
            ty(Misfit::UnknownField { field: "trainr".into(), expected: &["trainer"] }),
            ErrorType::UnknownField
        );
        assert_eq!(ty(Misfit::UnknownVariant { variant: "A".into(), expected: &["B"] }), ErrorType::NotSupported);
        assert_eq!(
            ty(Misfit::InvalidLength { len: 0, expected: "struct EnvVar with 2 elements".into() }),
            ErrorType::Message
        );
        assert_eq!(ty(Misfit::Custom("Invalid value: 3: reads like a type word".into())), ErrorType::Message);
    }
}
