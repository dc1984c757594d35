//! The post's YAML front matter: the keys the Kubeflow blog's Jekyll layout reads.

use serde::Deserialize;

/// The post's front matter; every key is required, so a post without one does not build.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FrontMatter {
    /// The Jekyll layout (`post`).
    pub layout: String,
    /// The post's title.
    pub title: String,
    /// The summary for the post list and social cards.
    pub description: String,
    /// The URL path the post is served at.
    pub permalink: String,
    /// Who wrote it, as the byline shows it.
    pub author: String,
    /// The blog's categories.
    pub categories: Vec<String>,
    /// Whether jekyll-toc builds a table of contents.
    pub toc: bool,
    /// The publication date, as the blog writes it.
    pub date: String,
}

/// `---\n<yaml>\n---\n<body>`
pub(super) fn parse(source: &str) -> Result<(FrontMatter, &str), String> {
    let rest = source.strip_prefix("---\n").ok_or("the post must start with a --- front matter block")?;
    let end = rest.find("\n---\n").ok_or("the front matter block is not closed with ---")?;
    let meta: FrontMatter = serde_yaml::from_str(&rest[..end]).map_err(|e| format!("front matter: {e}"))?;
    Ok((meta, &rest[end + 5..]))
}
