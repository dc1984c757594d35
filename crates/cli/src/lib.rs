//! `trainer-explorer`, the command line of the same core the widget uses (`cli`), and the post
//! builder that renders `post/trainer-v2.md` into `index.html` and the blog export (`post`).

pub mod cli;
pub mod post;

// The core, the views and the release data, reachable as `crate::…` in every module.
use explorer_core::{explain, migrate, model, pipeline, query, selection, snippets, upgrade, yaml};
use explorer_data::{catalog, releases};
use explorer_html::{explain_view, fallback, highlight, migrate_view};
