//! The Markdown export for the Kubeflow blog (Jekyll with kramdown): the same source with the
//! directives turned into what Jekyll understands.

use super::directives::{self, Directive};
use super::front_matter::{self, FrontMatter};

/// The file name Jekyll expects under `_posts/`.
pub fn file_name(meta: &FrontMatter) -> String {
    let slug = meta.permalink.trim_matches('/').replace('/', "-");
    format!("{}-{slug}.md", meta.date)
}

pub fn markdown_export(source: &str) -> Result<(String, String), String> {
    let (meta, body) = front_matter::parse(source)?;
    let mut out = String::new();
    out.push_str("---\n");
    out.push_str(&format!("layout: {}\n", meta.layout));
    out.push_str(&format!("title: {}\n", crate::yaml::scalar_string(&meta.title)));
    out.push_str(&format!("description: {}\n", crate::yaml::scalar_string(&meta.description)));
    out.push_str(&format!("permalink: {}\n", meta.permalink));
    out.push_str(&format!("author: {}\n", crate::yaml::scalar_string(&meta.author)));
    out.push_str(&format!("categories: [{}]\n", meta.categories.join(", ")));
    out.push_str(&format!("toc: {}\n", meta.toc));
    out.push_str("---\n");
    for (n, line) in body.lines().enumerate() {
        match directives::parse(line) {
            None => out.push_str(line),
            Some(Err(e)) => return Err(format!("post line {}: {e}", n + 1)),
            // jekyll-toc builds the contents from `toc: true`.
            Some(Ok(Directive::Toc)) => continue,
            Some(Ok(Directive::Snippet(s))) => {
                let code = s.code.trim_end();
                // Liquid runs on posts: protect anything that looks like a tag.
                let liquid = code.contains("{{") || code.contains("{%");
                if liquid {
                    out.push_str("{% raw %}\n");
                }
                out.push_str(&format!("```{}\n{code}\n```", s.language.id()));
                if liquid {
                    out.push_str("\n{% endraw %}");
                }
            }
            Some(Ok(Directive::Explorer { attrs })) => out.push_str(&directives::explorer_include(&attrs)),
        }
        out.push('\n');
    }
    Ok((file_name(&meta), out))
}
