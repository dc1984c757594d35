//! The Markdown export for the Kubeflow blog (Jekyll with kramdown): the same source with the
//! directives turned into what Jekyll understands.

use super::directives::{self, Directive};
use super::error::Error;
use super::front_matter::{self, FrontMatter};
use super::release_text;

/// The post's name as the blog uses it: `<date>-<slug>`, for `_posts/<name>.md` and `images/<name>/`.
pub(super) fn post_name(meta: &FrontMatter) -> String {
    let slug = meta.permalink.trim_matches('/').replace('/', "-");
    format!("{}-{slug}", meta.date)
}

/// The file name Jekyll expects under `_posts/`.
pub(super) fn file_name(meta: &FrontMatter) -> String {
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

/// The social card as SVG: the post's title over its first diagram, centred on a white card. The diagrams carry
/// their light colours in presentation attributes, so they draw the same outside the page; the
/// font, which the page's CSS gives them, is set on the card.
pub fn social_card_svg(source: &str) -> Result<String, Error> {
    let (meta, body) = front_matter::parse(source).map_err(Error::FrontMatter)?;
    card(&meta, body).map_err(Error::SocialCard)
}

fn card(meta: &FrontMatter, body: &str) -> Result<String, String> {
    let start = body.find("<svg").ok_or("the post has no diagram to draw the social card from")?;
    let end = body[start..].find("</svg>").ok_or("the first diagram has no </svg>")? + start;
    let open_end = body[start..end].find('>').ok_or("the first diagram's <svg> tag is not closed")? + start;
    let open = &body[start..open_end];
    let view_box = attribute(open, "viewBox").ok_or("the first diagram has no viewBox")?;
    let size: Vec<f64> = view_box.split_whitespace().filter_map(|n| n.parse().ok()).collect();
    let [_, _, w, h] = size[..] else {
        return Err(format!("the first diagram's viewBox {view_box:?} is not 4 numbers"));
    };
    // The post's title over the diagram: a card that is only a diagram says nothing in a feed.
    let lines = title_lines(&meta.title, 52, 2);
    let (margin, line_height) = (20.0, 50.0);
    let title_height = 24.0 + line_height * lines.len() as f64;
    let mut title = String::new();
    for (i, line) in lines.iter().enumerate() {
        let mut escaped = String::new();
        explorer_html::highlight::push_escaped_html(&mut escaped, line);
        title.push_str(&format!(
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"40\" font-weight=\"700\" fill=\"#1f2328\">{escaped}</text>",
            CARD_WIDTH / 2,
            16.0 + line_height * (i + 1) as f64 - 10.0
        ));
    }
    let room = CARD_HEIGHT as f64 - title_height - margin;
    let scale = ((CARD_WIDTH as f64 - 2.0 * margin) / w).min(room / h);
    let (dw, dh) = (w * scale, h * scale);
    let (x, y) = ((CARD_WIDTH as f64 - dw) / 2.0, title_height + (room - dh) / 2.0);
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{CARD_WIDTH}\" height=\"{CARD_HEIGHT}\" \
         viewBox=\"0 0 {CARD_WIDTH} {CARD_HEIGHT}\" font-family=\"sans-serif\"><rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\
         {title}<svg x=\"{x:.1}\" y=\"{y:.1}\" width=\"{dw:.1}\" height=\"{dh:.1}\" viewBox=\"{view_box}\">{}</svg></svg>\n",
        &body[open_end + 1..end]
    ))
}

/// `title` in at most `most` lines of about `width` characters, broken between words; the last
/// line ends in "…" when the title is longer.
fn title_lines(title: &str, width: usize, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    for word in title.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() > most {
        lines.truncate(most);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    lines
}

/// `name="value"` in an opening tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[at..].split('"').next()
}

/// The post's source as the Kubeflow blog's Markdown post: its file name and its text, with the
/// blog's front matter and every directive written out (snippets as fenced code, the explorer as
/// the blog's include). An error names the post line it comes from.
pub fn markdown_export(source: &str) -> Result<(String, String), Error> {
    let (meta, body) = front_matter::parse(source).map_err(Error::FrontMatter)?;
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
    let front_matter_end = out.len();
    out.push_str("---\n");
    for (n, line) in body.lines().enumerate() {
        match directives::parse(line) {
            None => out.push_str(&release_text::expand(line).map_err(|reason| Error::Line { line: n + 1, reason })?),
            Some(Err(reason)) => return Err(Error::Line { line: n + 1, reason }),
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
    // The blog's reading_time include counts every word of the page, the fallbacks' YAML and
    // Python included; the kit's include reads this instead when the post sets it.
    let minutes = read_minutes(&out[front_matter_end..]);
    out.insert_str(front_matter_end, &format!("read_time: {minutes}\n"));
    Ok((file_name(&meta), out))
}

/// The words a reader reads, at the blog theme's 180 words a minute: the prose and the tables,
/// not the code blocks, the diagrams, the explorer's fallbacks or the generated views (the
/// `{% raw %}` blocks), nor the markup.
pub(super) fn read_minutes(markdown: &str) -> usize {
    let mut prose = String::with_capacity(markdown.len());
    let mut rest = markdown;
    // Cut each span that is not prose, in order of where it starts.
    let spans: [(&str, &str); 6] = [
        ("```", "```"),
        ("{% raw %}", "{% endraw %}"),
        ("<svg", "</svg>"),
        ("<pre", "</pre>"),
        ("<script", "</script>"),
        ("{%", "%}"),
    ];
    while let Some((at, open, close)) =
        spans.iter().filter_map(|(o, c)| rest.find(o).map(|i| (i, *o, *c))).min_by_key(|(i, _, _)| *i)
    {
        prose.push_str(&rest[..at]);
        prose.push(' ');
        let after = &rest[at + open.len()..];
        rest = after.find(close).map_or("", |end| &after[end + close.len()..]);
    }
    prose.push_str(rest);
    // Tags out: a word is what is left between spaces.
    let mut text = String::with_capacity(prose.len());
    let mut in_tag = false;
    for c in prose.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let words = text.split_whitespace().filter(|w| w.chars().any(char::is_alphanumeric)).count();
    (words / 180).max(1)
}

#[cfg(test)]
mod tests {
    use super::read_minutes;

    #[test]
    fn the_read_time_counts_prose_not_code_diagrams_or_views() {
        let prose = "word ".repeat(360);
        let code = format!(
            "```yaml\n{}\n```\n{{% raw %}}\n<table>{}</table>\n{{% endraw %}}\n<svg>{}</svg>\n{{% include x.html %}}",
            "key: value\n".repeat(2000),
            "<td>cell</td>".repeat(900),
            "<text>label</text>".repeat(900)
        );
        assert_eq!(read_minutes(&format!("<p>{prose}</p>\n{code}")), 2);
        assert_eq!(read_minutes("a"), 1);
    }
}
