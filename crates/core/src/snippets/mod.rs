//! Pure functions from a `Selection` to what both panes show. The widget, the CLI and the
//! page's static fallback all print what `render` returns.
//!
//! This file holds what a pane is made of and `render`; each pane has its file (`v2_pane`,
//! `v1_pane`, with `unsupported` for a V2 pane without code), as do the fields each pane takes
//! (`fields`) and the "what changed" line (`summary`).

pub mod generated;
pub mod python;
pub mod runtimes;
pub mod sdk_v1;
pub mod sdk_v2;
pub mod topics;
pub mod trainjob;
pub mod v1_jobs;
pub mod workload;

mod fields;
mod summary;
mod unsupported;
mod v1_pane;
mod v2_pane;

pub use fields::{fields_elsewhere_note, v2_pane_takes};
pub use v1_pane::owned_by_runtime;
pub use v2_pane::v2_yaml;

use crate::selection::Selection;
use crate::yaml::{self, Line, PathSeg};
use summary::summary;
use v1_pane::v1_pane;
use v2_pane::v2_pane;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    V1,
    V2,
}

impl Api {
    pub fn id(self) -> &'static str {
        match self {
            Api::V1 => "v1",
            Api::V2 => "v2",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    Yaml,
    Python,
}

impl Language {
    pub fn id(self) -> &'static str {
        match self {
            Language::Yaml => "yaml",
            Language::Python => "python",
        }
    }
}

/// One copyable block of code.
#[derive(Clone, Debug, PartialEq)]
pub struct Snippet {
    pub api: Api,
    pub language: Language,
    pub title: String,
    pub code: String,
    /// Per line of `code`: true where a V1 line is infrastructure that a V2 runtime now owns.
    pub owned_by_runtime: Vec<bool>,
}

impl Snippet {
    fn yaml(api: Api, title: String, lines: Vec<Line>, mark: impl Fn(&[PathSeg]) -> bool) -> Snippet {
        let owned_by_runtime = lines.iter().map(|l| !l.path.is_empty() && mark(&l.path)).collect();
        Snippet { api, language: Language::Yaml, title, code: yaml::join(&lines), owned_by_runtime }
    }

    fn python(api: Api, title: String, code: String) -> Snippet {
        let owned_by_runtime = vec![false; code.lines().count()];
        Snippet { api, language: Language::Python, title, code, owned_by_runtime }
    }

    pub fn line_count(&self) -> usize {
        self.code.lines().count()
    }

    pub fn owned_count(&self) -> usize {
        self.owned_by_runtime.iter().filter(|b| **b).count()
    }
}

/// Shown instead of code where an API has nothing to offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub title: String,
    pub paragraphs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pane {
    pub api: Api,
    pub heading: String,
    pub snippets: Vec<Snippet>,
    pub notice: Option<Notice>,
}

impl Pane {
    /// Whether `other` shows the same code, block for block: what a reader would copy. Headings,
    /// titles and notices name the release or its SDK, so they are left out; a pane without code
    /// never matches.
    pub fn same_code(&self, other: &Pane) -> bool {
        !self.snippets.is_empty() && self.snippets.iter().map(|s| &s.code).eq(other.snippets.iter().map(|s| &s.code))
    }
}

/// Everything the widget shows for one selection.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub v2: Pane,
    pub v1: Pane,
    /// The "what changed" line.
    pub summary: String,
}

pub fn render(sel: &Selection) -> View {
    let v1 = v1_pane(sel);
    let v2 = v2_pane(sel);
    let summary = summary(sel, &v1, &v2);
    View { v2, v1, summary }
}

/// `uri` without its `hf://` scheme, every repetition of it, as `trim_start_matches("hf://")` did.
/// By hand: a `&str` pattern brings the standard library's two-way string searcher (3.7 KB) into
/// the widget's wasm; `strip_prefix` compares bytes.
fn without_hf_scheme(uri: &str) -> &str {
    let mut rest = uri;
    while let Some(after) = rest.strip_prefix("hf://") {
        rest = after;
    }
    rest
}

/// The flat list the CLI exports: V2 first, then V1.
pub fn all_snippets(sel: &Selection) -> Vec<Snippet> {
    let view = render(sel);
    view.v2.snippets.into_iter().chain(view.v1.snippets).collect()
}
