//! The lines the pipeline writes about a document of its input: where it starts, and why it
//! could not be used. One formatter, so that `migrate`'s and `upgrade`'s reports and their
//! CLI's exit-1 lines read the same way.

/// Where a document starts, as the reports name it: `document 2 (line 9)`.
pub(crate) fn document_at(index: usize, line: usize) -> String {
    format!("document {index} (line {line})")
}

/// Why a document of the input could not be used.
pub enum Failure<'a> {
    /// An object the command will not write for the target release, and why.
    Refused { kind: &'a str, name: &'a str, reason: &'a str },
    /// Not something the command reads (not YAML, not a Kubernetes object).
    Invalid { message: &'a str },
}

impl Failure<'_> {
    /// The line for the CLI's exit-1 case: `document 2 (line 9): TFJob tf refused: ...`.
    pub fn line(&self, at: &str) -> String {
        match self {
            Failure::Refused { kind, name, reason } => format!("{at}: {kind} {name} refused: {reason}"),
            Failure::Invalid { message } => format!("{at}: {message}"),
        }
    }

    /// The line in the report, which says `invalid` where the CLI's line leaves it to the message.
    pub(crate) fn report_line(&self, at: &str) -> String {
        match self {
            Failure::Refused { .. } => self.line(at),
            Failure::Invalid { message } => format!("{at}: invalid: {message}"),
        }
    }
}

/// One line per document that failed: `docs` gives each document's position, first line and
/// failure, if any.
pub(crate) fn failure_lines<'a>(docs: impl Iterator<Item = (usize, usize, Option<Failure<'a>>)>) -> Vec<String> {
    docs.filter_map(|(index, line, failure)| Some(failure?.line(&document_at(index, line)))).collect()
}
