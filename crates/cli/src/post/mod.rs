//! Builds the post from one source, `post/trainer-v2.md`, into two outputs:
//! `index.html` (the published page) and a Markdown export in the Kubeflow blog's format.
//!
//! The source is Markdown with raw HTML (diagrams) and directives in HTML comments, each on its
//! own line. Directives are expanded from the core, so no snippet is ever written by hand:
//! - `<!-- toc -->`: the table of contents (the blog builds its own from `toc: true`);
//! - `<!-- snippet topic=kueue -->` or `<!-- snippet query=framework=jax api=v2 language=python -->`;
//! - `<!-- explorer persona=… framework=… [preset] [sync=persona,params] -->`: a widget mount point
//!   with its static fallback (a Jekyll include in the export);
//! - `<!-- explain query=framework=deepspeed,nodes=4,gpus=2 -->`: a preset of "What Kubernetes
//!   runs", static HTML from the core linked to the TrainJob and runtime YAML it shows (raw HTML
//!   in the export);
//! - `<!-- v1-to-v2 -->`: each framework's V1 kind next to the newest release's runtime for it;
//! - `<!-- kueue-by-release -->`: which Kueue releases queue each release line's TrainJobs;
//! - `<!-- runtimes-by-release -->`: the table of built-in runtimes per release line. With the
//!   `{{…}}` placeholders for release lines, tags and SDK versions in the prose, it comes from
//!   `releases.rs` (see `release_text.rs`).

mod directives;
mod error;
mod export;
pub mod fallback;
mod front_matter;
mod page;
mod release_text;

pub use error::Error;
pub use export::{markdown_export, social_card_path, social_card_svg};
pub use front_matter::FrontMatter;
pub use page::render_page;
pub use release_text::{kueue_table, runtimes_table, v1_to_v2_table};

/// The post source as committed.
pub const SOURCE_PATH: &str = "post/trainer-v2.md";
/// The page template around the rendered post.
pub const TEMPLATE_PATH: &str = "post/page.html";

/// Splits the source into its front matter and Markdown body.
pub fn split(source: &str) -> Result<(FrontMatter, &str), Error> {
    front_matter::parse(source).map_err(Error::FrontMatter)
}
