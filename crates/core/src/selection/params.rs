//! The reader-settable parameters: their keys (the URL query keys), their limits, and how a
//! reader's text becomes a value or a reason it is refused.

use crate::text::decimal;
use explorer_data::catalog::{Framework, LlmModel};

/// One reader-settable parameter. The ids are the URL query keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamKey {
    /// The job's `metadata.name`.
    Name,
    /// The job's namespace (and a namespaced runtime's).
    Namespace,
    /// Nodes in total.
    Nodes,
    /// GPUs per node.
    Gpus,
    /// Processes per node.
    Procs,
    /// The trainer container's image.
    Image,
    /// The Kueue LocalQueue.
    Queue,
    /// The TorchTune model.
    Model,
    /// The TorchTune dataset's URI.
    Dataset,
}

impl ParamKey {
    /// Every parameter, in the order of the fields.
    pub const ALL: [ParamKey; 9] = [
        ParamKey::Name,
        ParamKey::Namespace,
        ParamKey::Nodes,
        ParamKey::Gpus,
        ParamKey::Procs,
        ParamKey::Image,
        ParamKey::Queue,
        ParamKey::Model,
        ParamKey::Dataset,
    ];

    /// The URL query key.
    pub fn id(self) -> &'static str {
        match self {
            ParamKey::Name => "name",
            ParamKey::Namespace => "namespace",
            ParamKey::Nodes => "nodes",
            ParamKey::Gpus => "gpus",
            ParamKey::Procs => "procs",
            ParamKey::Image => "image",
            ParamKey::Queue => "queue",
            ParamKey::Model => "model",
            ParamKey::Dataset => "dataset",
        }
    }

    /// The parameter of a query key; `None` for a key that is not one.
    pub fn from_id(id: &str) -> Option<ParamKey> {
        ParamKey::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The field's label, and the name the widget's notes use for it.
    pub fn label(self) -> &'static str {
        match self {
            ParamKey::Name => "Job name",
            ParamKey::Namespace => "Namespace",
            ParamKey::Nodes => "Nodes",
            ParamKey::Gpus => "GPUs per node",
            ParamKey::Procs => "Processes per node",
            ParamKey::Image => "Image",
            ParamKey::Queue => "Kueue LocalQueue",
            ParamKey::Model => "Model",
            ParamKey::Dataset => "Dataset",
        }
    }

    /// Whether the control applies to a framework (model and dataset only make sense for LLMs).
    pub fn applies_to(self, framework: Framework) -> bool {
        match self {
            ParamKey::Model | ParamKey::Dataset => framework == Framework::TorchTune,
            ParamKey::Procs | ParamKey::Image => framework != Framework::TorchTune,
            _ => true,
        }
    }
}

/// The most nodes the field accepts.
pub const MAX_NODES: u32 = 1024;
/// The most GPUs per node the field accepts.
pub const MAX_GPUS: u32 = 16;
/// The most processes per node the field accepts.
pub const MAX_PROCS: u32 = 128;

/// The parameters, each `None` until the reader sets it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Params {
    /// See [`ParamKey::Name`].
    pub name: Option<String>,
    /// See [`ParamKey::Namespace`].
    pub namespace: Option<String>,
    /// See [`ParamKey::Nodes`].
    pub nodes: Option<u32>,
    /// See [`ParamKey::Gpus`].
    pub gpus: Option<u32>,
    /// See [`ParamKey::Procs`].
    pub procs: Option<u32>,
    /// See [`ParamKey::Image`].
    pub image: Option<String>,
    /// See [`ParamKey::Queue`].
    pub queue: Option<String>,
    /// See [`ParamKey::Model`].
    pub model: Option<LlmModel>,
    /// See [`ParamKey::Dataset`].
    pub dataset: Option<String>,
}

impl Params {
    /// Validates `raw` for `key` and stores it. An empty value resets the parameter to its default.
    /// On error nothing changes, so a bad keystroke never reaches the snippets.
    pub fn set(&mut self, key: ParamKey, raw: &str) -> Result<(), ParamError> {
        let raw = raw.trim();
        if raw.is_empty() {
            self.clear(key);
            return Ok(());
        }
        match key {
            ParamKey::Name => self.name = Some(check_rfc1035(raw)?),
            ParamKey::Namespace => self.namespace = Some(check_rfc1123_label(raw)?),
            ParamKey::Nodes => self.nodes = Some(parse_count(raw, 1, MAX_NODES)?),
            ParamKey::Gpus => self.gpus = Some(parse_count(raw, 0, MAX_GPUS)?),
            ParamKey::Procs => self.procs = Some(parse_count(raw, 1, MAX_PROCS)?),
            ParamKey::Image => self.image = Some(check_image(raw)?),
            ParamKey::Queue => self.queue = Some(check_rfc1123_label(raw)?),
            ParamKey::Model => self.model = Some(LlmModel::from_id(raw).ok_or(ParamError::UnknownModel)?),
            ParamKey::Dataset => self.dataset = Some(check_dataset(raw)?),
        }
        Ok(())
    }

    /// Back to the framework's default.
    pub fn clear(&mut self, key: ParamKey) {
        match key {
            ParamKey::Name => self.name = None,
            ParamKey::Namespace => self.namespace = None,
            ParamKey::Nodes => self.nodes = None,
            ParamKey::Gpus => self.gpus = None,
            ParamKey::Procs => self.procs = None,
            ParamKey::Image => self.image = None,
            ParamKey::Queue => self.queue = None,
            ParamKey::Model => self.model = None,
            ParamKey::Dataset => self.dataset = None,
        }
    }

    /// The value as the reader would type it, or `None` when it is at its default.
    pub fn get(&self, key: ParamKey) -> Option<String> {
        match key {
            ParamKey::Name => self.name.clone(),
            ParamKey::Namespace => self.namespace.clone(),
            ParamKey::Nodes => self.nodes.map(|n| decimal(n.into())),
            ParamKey::Gpus => self.gpus.map(|n| decimal(n.into())),
            ParamKey::Procs => self.procs.map(|n| decimal(n.into())),
            ParamKey::Image => self.image.clone(),
            ParamKey::Queue => self.queue.clone(),
            ParamKey::Model => self.model.map(|m| m.id().to_string()),
            ParamKey::Dataset => self.dataset.clone(),
        }
    }
}

/// Why a parameter's text was refused. Its text (`Display`) is what the widget shows under the
/// field and the CLI after `invalid key="value": `.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamError {
    /// Not a whole number (or beyond `i64`).
    NotACount {
        /// The smallest the field accepts.
        min: u32,
        /// The largest the field accepts.
        max: u32,
    },
    /// A whole number outside the field's range.
    OutOfRange {
        /// The smallest the field accepts.
        min: u32,
        /// The largest the field accepts.
        max: u32,
    },
    /// Not a name the API server accepts: its reasons, in apimachinery's words (`k8s::names`).
    Name(Vec<String>),
    /// An image reference longer than 255 characters.
    ImageTooLong,
    /// Not an image reference.
    NotAnImage,
    /// A model the catalog does not know.
    UnknownModel,
    /// Not a Hugging Face dataset URI.
    NotADataset,
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::NotACount { min, max } => write!(f, "enter a whole number from {min} to {max}"),
            ParamError::OutOfRange { min, max } => write!(f, "must be from {min} to {max}"),
            ParamError::Name(reasons) => f.write_str(&crate::text::join(reasons, "; ")),
            ParamError::ImageTooLong => f.write_str("at most 255 characters"),
            ParamError::NotAnImage => f.write_str("an image reference such as registry.example.com/team/train:1.0"),
            // Written one by one: each list collected to be joined compiled the standard
            // library's collecting code once more for its own iterator type (wasm bytes).
            ParamError::UnknownModel => {
                f.write_str("unknown model; choose one of ")?;
                for (i, model) in LlmModel::ALL.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(model.id())?;
                }
                Ok(())
            }
            ParamError::NotADataset => f.write_str("a Hugging Face dataset URI, such as hf://tatsu-lab/alpaca/data"),
        }
    }
}

impl std::error::Error for ParamError {}

/// A count from `min` to `max`. Anything `i64` reads (a sign, then digits) is a whole number, and
/// one out of range says so; anything else, or a number beyond `i64`, is not one. Read by hand:
/// `str::parse::<i64>` brings 0.7 KB of general integer parsing into the widget's wasm.
fn parse_count(raw: &str, min: u32, max: u32) -> Result<u32, ParamError> {
    let (negative, digits) = match raw.as_bytes().first() {
        Some(b'-') => (true, &raw[1..]),
        Some(b'+') => (false, &raw[1..]),
        _ => (false, raw),
    };
    let significant = digits.trim_start_matches('0');
    // i64's limits have 19 digits: -9223372036854775808 to 9223372036854775807.
    let limit = if negative { "9223372036854775808" } else { "9223372036854775807" };
    let fits = significant.len() < 19 || significant.len() == 19 && significant <= limit;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || !fits {
        return Err(ParamError::NotACount { min, max });
    }
    let magnitude = significant.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    // Below zero is below every `min`.
    if negative && magnitude != 0 || magnitude < u64::from(min) || magnitude > u64::from(max) {
        return Err(ParamError::OutOfRange { min, max });
    }
    Ok(magnitude as u32)
}

/// RFC 1035 label: the TrainJob CRD's CEL rule for `metadata.name`; the API server's words.
fn check_rfc1035(raw: &str) -> Result<String, ParamError> {
    refused(raw, crate::k8s::names::is_dns1035_label(raw))
}

/// RFC 1123 label: namespaces, and the Kueue queue name (a label value); the API server's words.
fn check_rfc1123_label(raw: &str) -> Result<String, ParamError> {
    refused(raw, crate::k8s::names::is_dns1123_label(raw))
}

fn refused(raw: &str, reasons: Vec<String>) -> Result<String, ParamError> {
    if reasons.is_empty() {
        Ok(raw.to_string())
    } else {
        Err(ParamError::Name(reasons))
    }
}

fn check_image(raw: &str) -> Result<String, ParamError> {
    let ok_chars =
        raw.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b':' | b'@' | b'-' | b'_'));
    if raw.len() > 255 {
        return Err(ParamError::ImageTooLong);
    }
    // By hand, not `contains("//")`: see yaml::plain_is_safe.
    let empty_path_segment = raw.as_bytes().windows(2).any(|pair| pair == b"//");
    if !ok_chars || !raw.as_bytes()[0].is_ascii_alphanumeric() || empty_path_segment {
        return Err(ParamError::NotAnImage);
    }
    Ok(raw.to_string())
}

fn check_dataset(raw: &str) -> Result<String, ParamError> {
    let Some(path) = raw.strip_prefix("hf://") else {
        return Err(ParamError::NotADataset);
    };
    let ok_chars = path.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b'-' | b'_'));
    // Counted as they come, not collected (see `ParamError`'s `UnknownModel`).
    let (mut parts, mut any_empty) = (0, false);
    for part in path.split('/') {
        parts += 1;
        any_empty |= part.is_empty();
    }
    if raw.len() > 2048 || !ok_chars || parts < 2 || any_empty {
        return Err(ParamError::NotADataset);
    }
    Ok(raw.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse_count` answers as reading the text as an `i64` did: signs, zeros, spaces, the edges
    /// of `i64` and of the range, non-ASCII digits.
    #[test]
    fn counts_read_as_an_i64_reads_them() {
        let by_i64 = |raw: &str, min: u32, max: u32| -> Result<u32, ParamError> {
            let n: i64 = raw.parse().map_err(|_| ParamError::NotACount { min, max })?;
            if n < i64::from(min) || n > i64::from(max) {
                return Err(ParamError::OutOfRange { min, max });
            }
            Ok(n as u32)
        };
        let inputs = [
            "",
            "+",
            "-",
            "0",
            "-0",
            "+0",
            "00",
            "-00",
            "1",
            "+1",
            "-1",
            "01",
            "007",
            "16",
            "17",
            "128",
            "129",
            "1024",
            "1025",
            " 4",
            "4 ",
            "4.0",
            "1e3",
            "0x10",
            "٣",
            "４",
            "--1",
            "+-1",
            "4294967295",
            "4294967296",
            "4294967297",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "09223372036854775807",
            "-0009223372036854775808",
            "99999999999999999999",
            "-99999999999999999999",
        ];
        for raw in inputs {
            for (min, max) in [(0, MAX_GPUS), (1, MAX_NODES), (1, MAX_PROCS)] {
                assert_eq!(parse_count(raw, min, max), by_i64(raw, min, max), "{raw:?} in {min}..={max}");
            }
        }
    }

    #[test]
    fn bad_values_are_refused_with_a_reason_and_change_nothing() {
        let mut p = Params::default();
        for (key, raw) in [
            (ParamKey::Nodes, "-7"),
            (ParamKey::Nodes, "0"),
            (ParamKey::Nodes, "1e3"),
            (ParamKey::Nodes, "99999999999999999999"),
            (ParamKey::Gpus, "17"),
            (ParamKey::Procs, "0"),
            (ParamKey::Name, "Bad_Name"),
            (ParamKey::Name, "9lives"),
            (ParamKey::Namespace, "-ns"),
            (ParamKey::Image, "img with space"),
            (ParamKey::Image, "<script>"),
            (ParamKey::Queue, "a".repeat(64).as_str()),
            (ParamKey::Model, "gpt-5"),
            (ParamKey::Dataset, "s3://bucket"),
            (ParamKey::Dataset, "hf://only"),
        ] {
            let err = p.set(key, raw).expect_err(&format!("{key:?}={raw} must be refused"));
            assert!(!err.to_string().is_empty());
            assert_eq!(p, Params::default(), "{key:?}={raw} changed the params");
        }
    }
}
