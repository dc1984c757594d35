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

/// Which API a pane or snippet is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    /// Training Operator V1 (`kubeflow.org/v1`, the V1 SDK).
    V1,
    /// Trainer V2 (`trainer.kubeflow.org/v1alpha1`, the Kubeflow SDK).
    V2,
}

impl Api {
    /// The id the CLI's JSON uses (`export`).
    pub fn id(self) -> &'static str {
        match self {
            Api::V1 => "v1",
            Api::V2 => "v2",
        }
    }
}

/// A snippet's language, for highlighting and the code fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// Kubernetes YAML.
    Yaml,
    /// Python for the SDK.
    Python,
}

impl Language {
    /// The id the CLI's JSON, the code fences and the highlighter use.
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
    /// The API it is written for.
    pub api: Api,
    /// Its language.
    pub language: Language,
    /// The heading above the code box.
    pub title: String,
    /// The code, as a reader copies it.
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

    /// Lines of code, for the summary's counts.
    pub fn line_count(&self) -> usize {
        self.code.lines().count()
    }

    /// Lines a V2 runtime now owns (marked in `owned_by_runtime`).
    pub fn owned_count(&self) -> usize {
        self.owned_by_runtime.iter().filter(|b| **b).count()
    }
}

/// Shown instead of code where an API has nothing to offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The notice's heading.
    pub title: String,
    /// What the reader does instead, a paragraph each.
    pub paragraphs: Vec<String>,
}

/// One side of the comparison: the V2 or the V1 pane.
#[derive(Clone, Debug, PartialEq)]
pub struct Pane {
    /// The side it shows.
    pub api: Api,
    /// The release it is written for (`Trainer v2.3.0`, `Training Operator v1.9`).
    pub heading: String,
    /// Its code boxes, in order; empty where a notice says why.
    pub snippets: Vec<Snippet>,
    /// Shown above the code, or instead of it.
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
    /// The V2 pane.
    pub v2: Pane,
    /// The V1 pane.
    pub v1: Pane,
    /// The "what changed" line.
    pub summary: String,
}

/// Both panes and the summary for a selection: what every caller shows.
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

/// A Hugging Face dataset URI's repository, `org/name`: the first two `/`-separated pieces of
/// the URI without its `hf://` scheme, as kubeflow-training 1.9.4's `train()` takes them (both V1
/// panes say it). What comes before the second `/`, rather than the pieces collected and joined
/// again: that `Vec` was 0.4 KB of the widget's wasm, in each of the two panes.
fn hf_repo_id(uri: &str) -> &str {
    let path = without_hf_scheme(uri);
    let mut slashes = 0;
    for (i, byte) in path.bytes().enumerate() {
        if byte == b'/' {
            slashes += 1;
            if slashes == 2 {
                return &path[..i];
            }
        }
    }
    path
}

/// The flat list the CLI exports: V2 first, then V1.
pub fn all_snippets(sel: &Selection) -> Vec<Snippet> {
    let view = render(sel);
    view.v2.snippets.into_iter().chain(view.v1.snippets).collect()
}

#[cfg(test)]
mod tests {
    use super::hf_repo_id;

    #[test]
    fn a_repo_id_is_the_first_two_pieces_of_the_path() {
        for uri in
            ["hf://tatsu-lab/alpaca/data", "hf://org/ds", "org/ds/a/b", "hf://hf://org", "a//b", "a/", "", "/a/b"]
        {
            let pieces: Vec<&str> = uri.trim_start_matches("hf://").split('/').take(2).collect();
            assert_eq!(hf_repo_id(uri), pieces.join("/"), "{uri}");
        }
    }
}
