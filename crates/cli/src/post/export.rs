//! The Markdown export for the Kubeflow blog (Jekyll with kramdown): the same source with the
//! directives turned into what Jekyll understands.

use super::directives::{self, Directive};
use super::front_matter::{self, FrontMatter};
use super::release_text;

/// The post's name as the blog uses it: `<date>-<slug>`, for `_posts/<name>.md` and `images/<name>/`.
pub fn post_name(meta: &FrontMatter) -> String {
    let slug = meta.permalink.trim_matches('/').replace('/', "-");
    format!("{}-{slug}", meta.date)
}

/// The file name Jekyll expects under `_posts/`.
pub fn file_name(meta: &FrontMatter) -> String {
    format!("{}.md", post_name(meta))
}

/// Where the blog serves the post's social card (`image:` in the front matter), relative to the
/// site root; `make kits` draws it there from `social_card_svg`.
pub fn social_card_path(meta: &FrontMatter) -> String {
    format!("images/{}/social-card.png", post_name(meta))
}

/// Social cards are shown at 1.91:1; this is the size most sites ask for.
const CARD_WIDTH: u32 = 1200;
const CARD_HEIGHT: u32 = 630;

/// The social card as SVG: the post's first diagram centred on a white card. The diagrams carry
/// their light colours in presentation attributes, so they draw the same outside the page; the
/// font, which the page's CSS gives them, is set on the card.
pub fn social_card_svg(source: &str) -> Result<String, String> {
    let (_, body) = front_matter::parse(source)?;
    let start = body.find("<svg").ok_or("the post has no diagram to draw the social card from")?;
    let end = body[start..].find("</svg>").ok_or("the first diagram has no </svg>")? + start;
    let open_end = body[start..end].find('>').ok_or("the first diagram's <svg> tag is not closed")? + start;
    let open = &body[start..open_end];
    let view_box = attribute(open, "viewBox").ok_or("the first diagram has no viewBox")?;
    let size: Vec<f64> = view_box.split_whitespace().filter_map(|n| n.parse().ok()).collect();
    let [_, _, w, h] = size[..] else {
        return Err(format!("the first diagram's viewBox {view_box:?} is not 4 numbers"));
    };
    let margin = 20.0;
    let scale = ((CARD_WIDTH as f64 - 2.0 * margin) / w).min((CARD_HEIGHT as f64 - 2.0 * margin) / h);
    let (dw, dh) = (w * scale, h * scale);
    let (x, y) = ((CARD_WIDTH as f64 - dw) / 2.0, (CARD_HEIGHT as f64 - dh) / 2.0);
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{CARD_WIDTH}\" height=\"{CARD_HEIGHT}\" \
         viewBox=\"0 0 {CARD_WIDTH} {CARD_HEIGHT}\" font-family=\"sans-serif\"><rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\
         <svg x=\"{x:.1}\" y=\"{y:.1}\" width=\"{dw:.1}\" height=\"{dh:.1}\" viewBox=\"{view_box}\">{}</svg></svg>\n",
        &body[open_end + 1..end]
    ))
}

/// `name="value"` in an opening tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[at..].split('"').next()
}

pub fn markdown_export(source: &str) -> Result<(String, String), String> {
    let (meta, body) = front_matter::parse(source)?;
    let mut out = String::new();
    out.push_str("---\n");
    out.push_str(&format!("layout: {}\n", meta.layout));
    out.push_str(&format!("title: {}\n", explorer_core::yaml::scalar_string(&meta.title)));
    out.push_str(&format!("description: {}\n", explorer_core::yaml::scalar_string(&meta.description)));
    out.push_str(&format!("permalink: {}\n", meta.permalink));
    out.push_str(&format!("author: {}\n", explorer_core::yaml::scalar_string(&meta.author)));
    out.push_str(&format!("categories: [{}]\n", meta.categories.join(", ")));
    out.push_str(&format!("toc: {}\n", meta.toc));
    // The blog's conventions: comments on, listed on the home page, and a social card.
    out.push_str("comments: true\n");
    out.push_str("hide: false\n");
    out.push_str(&format!("image: {}\n", social_card_path(&meta)));
    out.push_str("---\n");
    for (n, line) in body.lines().enumerate() {
        match directives::parse(line) {
            None => out.push_str(&release_text::expand(line).map_err(|e| format!("post line {}: {e}", n + 1))?),
            Some(Err(e)) => return Err(format!("post line {}: {e}", n + 1)),
            Some(Ok(Directive::RuntimesByRelease)) => out.push_str(&release_text::runtimes_table()),
            Some(Ok(Directive::V1ToV2)) => out.push_str(&release_text::v1_to_v2_table()),
            Some(Ok(Directive::KueueByRelease)) => out.push_str(&release_text::kueue_table()),
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
            // Raw HTML, one block: kramdown passes it through; Liquid must not read it. Its
            // stylesheet comes with the kit's include (written once per page).
            Some(Ok(Directive::Explain(html) | Directive::PodChanges(html))) => {
                out.push_str(&format!("{{% raw %}}\n{html}\n{{% endraw %}}"))
            }
        }
        out.push('\n');
    }
    Ok((file_name(&meta), out))
}
