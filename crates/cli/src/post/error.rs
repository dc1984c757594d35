//! Why the post could not be built from its source: which part of it, and the builder's words for
//! what is wrong there (the text every caller prints).

use std::fmt;

/// Why the post, its export or its social card could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The front matter: absent, not closed, or not the fields the post needs.
    FrontMatter(String),
    /// A line of the body whose directive or `{{…}}` placeholder does not expand.
    Line {
        /// The line in the body (1-based).
        line: usize,
        /// Why.
        reason: String,
    },
    /// A snippet's figure the Markdown did not pass through once (a directive inside a code block).
    Figure {
        /// The snippet's number (1-based).
        snippet: usize,
        /// Its marker in the rendered body.
        marker: String,
        /// How many times the marker was found.
        found: usize,
    },
    /// A placeholder of the page template (post/page.html) that does not expand.
    Template(String),
    /// The diagram the social card is drawn from: absent or without a size.
    SocialCard(String),
    /// A fallback region of the page out of place.
    Fallback(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::FrontMatter(reason) | Error::SocialCard(reason) | Error::Fallback(reason) => f.write_str(reason),
            Error::Line { line, reason } => write!(f, "post line {line}: {reason}"),
            Error::Figure { snippet, marker, found } => {
                write!(f, "snippet {snippet}: its marker {marker} rendered {found} times, expected once")
            }
            Error::Template(reason) => write!(f, "{}: {reason}", super::TEMPLATE_PATH),
        }
    }
}

impl std::error::Error for Error {}
