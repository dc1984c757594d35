//! A field error as apimachinery's `pkg/util/validation/field` (errors.go, path.go) has it: a
//! typed `ErrorType`, the `Path` of the field, and the detail. The API server decides by the type
//! (apiextensions-apiserver's `hasBlockingErr` in pkg/registry/customresource/strategy.go
//! compares `err.Type`), and so does every caller here: no decision reads the printed text.

use std::fmt;

/// What kind of error a field has: apimachinery's `field.ErrorType`, then what else refuses a
/// create without a `field.Error` (the REST mapper, strict decoding, a controller's sentence).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `field.ErrorTypeNotFound`: `Not found`.
    NotFound,
    /// `field.ErrorTypeRequired`: `Required value`.
    Required,
    /// `field.ErrorTypeDuplicate`: `Duplicate value`.
    Duplicate,
    /// `field.ErrorTypeInvalid`: `Invalid value`.
    Invalid,
    /// `field.ErrorTypeNotSupported`: `Unsupported value`.
    NotSupported,
    /// `field.ErrorTypeForbidden`: `Forbidden`.
    Forbidden,
    /// `field.ErrorTypeTooLong`: `Too long`.
    TooLong,
    /// `field.ErrorTypeTooMany`: `Too many`.
    TooMany,
    /// `field.ErrorTypeInternal`: `Internal error`.
    Internal,
    /// The value does not have the schema's type (`field.TypeInvalid`); printed as `Invalid value`.
    TypeInvalid,
    /// The REST mapper knows no such kind at that version (`no matches for kind …`).
    NoKindMatch,
    /// Strict decoding: a field the schema does not declare (`unknown field "…"`).
    UnknownField,
    /// The runtime a TrainJob references is neither in the input nor shipped by the release (the
    /// reader's sentence, printed as it is).
    RuntimeNotFound,
    /// A webhook's or controller's own sentence, printed as it is, with no type word before it.
    Message,
}

impl ErrorType {
    /// errors.go `ErrorType.String()`; `None` for the types that print their detail alone.
    pub fn word(self) -> Option<&'static str> {
        Some(match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::Internal => "Internal error",
            ErrorType::NoKindMatch | ErrorType::UnknownField | ErrorType::RuntimeNotFound | ErrorType::Message => {
                return None
            }
        })
    }
}

/// One step of a field path, as path.go's `Child`, `Index` and `Key` make them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A field name: `.name`.
    Field(String),
    /// An item of a list: `[0]`.
    Index(usize),
    /// A value of a map, by its key: `[volcano.sh/queue-name]`.
    Key(String),
}

/// Where an error is: the steps from the object's root, and whether that object is the runtime
/// a TrainJob references (printed `runtime spec.x`) rather than the object judged itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path {
    /// Whether the path is in the runtime a TrainJob references (printed `runtime spec.x`).
    pub in_runtime: bool,
    /// The steps from the object's root.
    pub steps: Vec<Step>,
}

impl Path {
    /// The object's root, printed `<nil>` as path.go prints a nil path.
    pub fn root() -> Path {
        Path::default()
    }

    /// A path written in the notation it prints in (`spec.trainer.args[0]`,
    /// `spec.annotations[volcano.sh/queue-name]`): a name in brackets is a map key, a number an
    /// index. `""` is the root.
    pub fn parse(text: &str) -> Path {
        let mut steps = Vec::new();
        let mut name = String::new();
        let mut chars = text.chars();
        let end_name = |name: &mut String, steps: &mut Vec<Step>| {
            if !name.is_empty() {
                steps.push(Step::Field(std::mem::take(name)));
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '.' => end_name(&mut name, &mut steps),
                '[' => {
                    end_name(&mut name, &mut steps);
                    let inside: String = chars.by_ref().take_while(|c| *c != ']').collect();
                    steps.push(inside.parse().map_or(Step::Key(inside), Step::Index));
                }
                c => name.push(c),
            }
        }
        end_name(&mut name, &mut steps);
        let path = Path { in_runtime: false, steps };
        // A name this notation cannot write back (an empty key, an unclosed `[`) stays whole, so
        // the path always prints as it was written.
        if path.steps.is_empty() || path.to_string() == text {
            path
        } else {
            Path { in_runtime: false, steps: vec![Step::Field(text.into())] }
        }
    }

    /// A path of one field name (path.go's `NewPath`).
    pub fn new(name: impl Into<String>) -> Path {
        Path::root().child(name)
    }

    /// This path, then a field name (path.go's `Child`): `.name`.
    pub fn child(mut self, name: impl Into<String>) -> Path {
        self.steps.push(Step::Field(name.into()));
        self
    }

    /// The same path, in the runtime a TrainJob references.
    pub fn in_runtime(self) -> Path {
        Path { in_runtime: true, ..self }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.in_runtime {
            f.write_str("runtime ")?;
        }
        if self.steps.is_empty() {
            return f.write_str("<nil>");
        }
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                Step::Field(name) if i == 0 => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Index(n) => write!(f, "[{n}]")?,
                Step::Key(key) => write!(f, "[{key}]")?,
            }
        }
        Ok(())
    }
}

/// One error the API server, the webhook or the controller answers instead of creating
/// anything: its type, the field it names, and what follows the type's word in the message
/// (the value and why: `"hf:/x": must start with hf://`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The error's type.
    pub ty: ErrorType,
    /// The field it names.
    pub path: Path,
    /// What follows the type's word: the value and why.
    pub detail: String,
}

impl Rejection {
    /// An error of type `ty` at `path`.
    pub fn new(ty: ErrorType, path: Path, detail: impl Into<String>) -> Rejection {
        Rejection { ty, path, detail: detail.into() }
    }

    /// `field.Invalid`: `detail` is the value and why (`"x": must be …`).
    pub fn invalid(path: &str, detail: impl Into<String>) -> Rejection {
        Rejection::new(ErrorType::Invalid, Path::parse(path), detail)
    }

    /// `field.Required`, with no detail.
    pub fn required(path: &str) -> Rejection {
        Rejection::new(ErrorType::Required, Path::parse(path), "")
    }

    /// A sentence that is not a typed field error, printed as it is.
    pub fn message(path: &str, text: impl Into<String>) -> Rejection {
        Rejection::new(ErrorType::Message, Path::parse(path), text)
    }

    /// The message after the path (errors.go `ErrorBody`): the type's word, then the detail.
    pub fn reason(&self) -> String {
        match (self.ty.word(), self.detail.is_empty()) {
            (Some(word), true) => word.to_string(),
            (Some(word), false) => format!("{word}: {}", self.detail),
            (None, _) => self.detail.clone(),
        }
    }

    /// The path as printed (`spec.trainer.numNodes`, `<nil>`, `runtime spec.x`).
    pub fn field(&self) -> String {
        self.path.to_string()
    }
}

/// `<path>: <reason>`, as errors.go's `Error()` prints a field error.
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason())
    }
}

impl std::error::Error for Rejection {}

/// The JSON answers keep their two strings: `{"field": …, "reason": …}`.
impl serde::Serialize for Rejection {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Rejection", 2)?;
        s.serialize_field("field", &self.field())?;
        s.serialize_field("reason", &self.reason())?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_they_are_written() {
        for text in [
            "spec.trainer.numNodes",
            "spec.trainer.args[0]",
            "spec.runtimePatches[1].trainingRuntimeSpec.template",
            "spec.annotations[volcano.sh/queue-name]",
            "spec.limits.cpu",
            "metadata.name",
        ] {
            assert_eq!(Path::parse(text).to_string(), text);
        }
        assert_eq!(Path::parse("").to_string(), "<nil>");
        for odd in ["a..b", "a[b", "labels.x[", "a.[0]"] {
            assert_eq!(Path::parse(odd).to_string(), odd);
        }
        assert_eq!(Path::parse("spec.x").in_runtime().to_string(), "runtime spec.x");
        assert_eq!(
            Path::parse("a[2][volcano.sh/q].b").steps,
            [Step::Field("a".into()), Step::Index(2), Step::Key("volcano.sh/q".into()), Step::Field("b".into())]
        );
    }

    #[test]
    fn the_body_is_the_types_word_then_the_detail() {
        let r = Rejection::invalid("spec.x", "\"y\": must be z");
        assert_eq!(r.to_string(), "spec.x: Invalid value: \"y\": must be z");
        assert_eq!(Rejection::required("spec.trainer.image").to_string(), "spec.trainer.image: Required value");
        let typed = Rejection::new(ErrorType::TypeInvalid, Path::root(), "\"string\": must be of type integer");
        assert_eq!(typed.to_string(), "<nil>: Invalid value: \"string\": must be of type integer");
        assert_eq!(Rejection::message("spec", "no runtime").reason(), "no runtime");
    }
}
