//! The lines the pipeline writes about a document of its input: where it starts, and why it
//! could not be used. One formatter, so that `migrate`'s and `upgrade`'s reports and their
//! CLI's exit-1 lines read the same way.

use std::fmt;

/// Where a document starts, as the reports name it: `document 2 (line 9)`.
pub(crate) fn document_at(index: usize, line: usize) -> String {
    format!("document {index} (line {line})")
}

/// Why a front end will not write a document for the target release: the front end's own typed
/// refusal. Its text (`Display`) is what the failure lines, the report, the JSON's `reason` and
/// the views print.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Refusal {
    /// The migrator's (a V1 job it cannot convert for the release).
    #[cfg(feature = "migrate")]
    Migrate(crate::migrate::convert::Refusal),
    /// The upgrade's (a V2 manifest it cannot rewrite).
    Upgrade(crate::upgrade::Refusal),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            #[cfg(feature = "migrate")]
            Refusal::Migrate(refusal) => fmt::Display::fmt(refusal, f),
            Refusal::Upgrade(refusal) => fmt::Display::fmt(refusal, f),
        }
    }
}

impl std::error::Error for Refusal {}

/// Why a document is not something a front end reads: not YAML, not a Kubernetes object, or a
/// job the migrator cannot read. Its text (`Display`) is what every output prints.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Invalid {
    /// The YAML parser could not read the document.
    Yaml(super::input::YamlError),
    /// The migrator's reason.
    #[cfg(feature = "migrate")]
    Migrate(crate::migrate::convert::Invalid),
    /// The upgrade's reason.
    Upgrade(crate::upgrade::Invalid),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Yaml(error) => write!(f, "not valid YAML: {error}"),
            #[cfg(feature = "migrate")]
            Invalid::Migrate(invalid) => fmt::Display::fmt(invalid, f),
            Invalid::Upgrade(invalid) => fmt::Display::fmt(invalid, f),
        }
    }
}

impl std::error::Error for Invalid {}

/// Why a document of the input could not be used.
pub enum Failure<'a> {
    /// An object the command will not write for the target release, and why.
    Refused {
        /// The object's kind.
        kind: &'a str,
        /// The object's name.
        name: &'a str,
        /// Why.
        reason: &'a Refusal,
    },
    /// Not something the command reads (not YAML, not a Kubernetes object).
    Invalid {
        /// Why.
        error: &'a Invalid,
    },
}

impl Failure<'_> {
    /// The line for the CLI's exit-1 case: `document 2 (line 9): TFJob tf refused: ...`.
    pub fn line(&self, at: &str) -> String {
        let line = match self {
            Failure::Refused { kind, name, reason } => format!("{at}: {kind} {name} refused: {reason}"),
            Failure::Invalid { error } => format!("{at}: {error}"),
        };
        // One line, as the report writes it: the CLI matches the two.
        super::one_line(&line).into_owned()
    }

    /// The line in the report, which says `invalid` where the CLI's line leaves it to the message.
    pub(crate) fn report_line(&self, at: &str) -> String {
        match self {
            Failure::Refused { .. } => self.line(at),
            Failure::Invalid { error } => format!("{at}: invalid: {error}"),
        }
    }
}

/// One line per document that failed: `docs` gives each document's position, first line and
/// failure, if any.
pub(crate) fn failure_lines<'a>(docs: impl Iterator<Item = (usize, usize, Option<Failure<'a>>)>) -> Vec<String> {
    docs.filter_map(|(index, line, failure)| Some(failure?.line(&document_at(index, line)))).collect()
}
