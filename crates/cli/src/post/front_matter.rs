//! The post's YAML front matter: the keys the Kubeflow blog's Jekyll layout reads.

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FrontMatter {
    pub layout: String,
    pub title: String,
    pub description: String,
    pub permalink: String,
    pub author: String,
    pub categories: Vec<String>,
    pub toc: bool,
    pub date: String,
}

/// `---\n<yaml>\n---\n<body>`
pub(super) fn parse(source: &str) -> Result<(FrontMatter, &str), String> {
    let rest = source.strip_prefix("---\n").ok_or("the post must start with a --- front matter block")?;
    let end = rest.find("\n---\n").ok_or("the front matter block is not closed with ---")?;
    let meta: FrontMatter = serde_yaml::from_str(&rest[..end]).map_err(|e| format!("front matter: {e}"))?;
    Ok((meta, &rest[end + 5..]))
}
