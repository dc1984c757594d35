//! `index.html`: the Markdown rendered with heading anchors, a table of contents, the
//! core's snippets and the widget mount points with their static fallback.

use super::directives::{self, Directive};
use super::error::Error;
use super::fallback;
use super::front_matter;
use super::release_text;
use explorer_html::highlight::escape_html;
use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

const TOC_MARKER: &str = "<!--TOC-->";

/// Where the `n`th snippet figure goes. The figure itself is inserted after the Markdown is
/// parsed, as the mount points' fallbacks are: a figure holds code, and a blank line in the code
/// would end a raw HTML block and hand the rest of the figure to the Markdown parser.
fn figure_marker(n: usize) -> String {
    format!("<!--figure:{n}-->")
}

/// The body with its directives expanded into HTML blocks, line by line, and the snippet
/// figures that replace their markers once the body is rendered.
struct Expanded {
    markdown: String,
    figures: Vec<String>,
}

fn expand(body: &str) -> Result<Expanded, Error> {
    let mut out = String::with_capacity(body.len() * 2);
    let mut figures = Vec::new();
    for (n, line) in body.lines().enumerate() {
        match directives::parse(line) {
            None => out.push_str(&release_text::expand(line).map_err(|reason| Error::Line { line: n + 1, reason })?),
            Some(Err(reason)) => return Err(Error::Line { line: n + 1, reason }),
            Some(Ok(Directive::Toc)) => out.push_str(TOC_MARKER),
            Some(Ok(Directive::RuntimesByRelease)) => out.push_str(&release_text::runtimes_table()),
            Some(Ok(Directive::V1ToV2)) => out.push_str(&release_text::v1_to_v2_table()),
            Some(Ok(Directive::KueueByRelease)) => out.push_str(&release_text::kueue_table()),
            Some(Ok(Directive::Snippet(s))) => {
                out.push_str(&figure_marker(figures.len()));
                figures.push(explorer_html::fallback::snippet_html(&s));
            }
            Some(Ok(Directive::Explain(html) | Directive::PodChanges(html))) => {
                out.push_str(&figure_marker(figures.len()));
                figures.push(html);
            }
            Some(Ok(Directive::Explorer { attrs })) => {
                directives::check_explorer(&attrs).map_err(|reason| Error::Line { line: n + 1, reason })?;
                out.push_str(&directives::explorer_html(&attrs));
            }
        }
        out.push('\n');
    }
    Ok(Expanded { markdown: out, figures })
}

/// Replaces each figure marker in the rendered body with its figure. A marker the Markdown
/// parser did not pass through as raw HTML (a snippet directive inside a code block, say) is an
/// error rather than a figure shown as escaped text.
fn insert_figures(html: &str, figures: &[String]) -> Result<String, Error> {
    let mut out = html.to_string();
    for (n, figure) in figures.iter().enumerate() {
        let marker = figure_marker(n);
        match out.matches(&marker).count() {
            1 => out = out.replacen(&marker, figure, 1),
            found => return Err(Error::Figure { snippet: n + 1, marker, found }),
        }
    }
    Ok(out)
}

fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

struct Heading {
    level: HeadingLevel,
    id: String,
    text: String,
}

/// Renders the Markdown body; returns the HTML and the h2/h3 headings for the TOC.
fn render_body(markdown: &str) -> (String, Vec<Heading>) {
    let options = Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_SMART_PUNCTUATION;
    let mut events: Vec<Event> = Vec::new();
    let mut headings = Vec::new();
    let mut current: Option<(HeadingLevel, String, String)> = None;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Heading { level, id, classes, attrs }) => {
                let id = id.map(|i| i.to_string()).unwrap_or_default();
                current = Some((level, id.clone(), String::new()));
                events.push(Event::Start(Tag::Heading { level, id: Some(CowStr::from(id)), classes, attrs }));
            }
            Event::Text(ref t) | Event::Code(ref t) if current.is_some() => {
                if let Some((_, _, text)) = current.as_mut() {
                    text.push_str(t);
                }
                events.push(event);
            }
            Event::End(TagEnd::Heading(level)) => {
                if let Some((lvl, mut id, text)) = current.take() {
                    if id.is_empty() {
                        id = slug(&text);
                    }
                    if matches!(lvl, HeadingLevel::H2 | HeadingLevel::H3) {
                        events.push(Event::InlineHtml(CowStr::from(format!(
                            "<a class=\"anchor\" href=\"#{id}\" aria-label=\"Link to this section: {}\">#</a>",
                            escape_html(&text)
                        ))));
                        headings.push(Heading { level: lvl, id, text });
                    }
                }
                events.push(Event::End(TagEnd::Heading(level)));
            }
            other => events.push(other),
        }
    }
    // Headings without an explicit id get their slug; patch the start tags to match.
    let mut slugs = headings.iter().map(|h| h.id.clone());
    for e in events.iter_mut() {
        if let Event::Start(Tag::Heading { level, id, .. }) = e {
            if matches!(level, HeadingLevel::H2 | HeadingLevel::H3) {
                if let Some(s) = slugs.next() {
                    *id = Some(CowStr::from(s));
                }
            }
        }
    }
    let mut out = String::new();
    html::push_html(&mut out, events.into_iter());
    (label_cells(&out), headings)
}

/// Each body cell of a table gets its column's heading as `data-label`: on a phone the rows
/// read as cards (page.css), each value under its column's name, so no table scrolls sideways.
fn label_cells(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut rest = html;
    while let Some(start) = rest.find("<table>") {
        let Some(len) = rest[start..].find("</table>") else { break };
        let table = &rest[start..start + len];
        out.push_str(&rest[..start]);
        let head_end = table.find("</thead>").unwrap_or(0);
        let labels: Vec<String> = table[..head_end]
            .split("<th")
            .skip(1)
            // `<th>` or `<th style=…>`, not `<thead>`.
            .filter(|cell| cell.starts_with(['>', ' ']))
            .map(|cell| {
                let inner = cell.split_once('>').map_or("", |(_, c)| c);
                let inner = inner.split("</th>").next().unwrap_or_default();
                // The heading's text, without its markup.
                let mut text = String::new();
                let mut in_tag = false;
                for c in inner.chars() {
                    match c {
                        '<' => in_tag = true,
                        '>' => in_tag = false,
                        '"' if !in_tag => text.push_str("&quot;"),
                        _ if !in_tag => text.push(c),
                        _ => {}
                    }
                }
                text
            })
            .collect();
        out.push_str(&table[..head_end]);
        for (i, row) in table[head_end..].split("<tr>").enumerate() {
            if i > 0 {
                out.push_str("<tr>");
            }
            for (n, cell) in row.split("<td").enumerate() {
                if n > 0 {
                    out.push_str("<td");
                    if let Some(label) = labels.get(n - 1) {
                        out.push_str(&format!(" data-label=\"{label}\""));
                    }
                }
                out.push_str(cell);
            }
        }
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out
}

fn toc(headings: &[Heading]) -> String {
    let mut out = String::from(
        "<nav class=\"toc\" aria-labelledby=\"toc-title\"><p id=\"toc-title\"><strong>Contents</strong></p><ol>",
    );
    let mut in_sub = false;
    for (i, h) in headings.iter().enumerate() {
        let item = format!("<a href=\"#{}\">{}</a>", h.id, escape_html(&h.text));
        match h.level {
            HeadingLevel::H2 => {
                if in_sub {
                    out.push_str("</ol></li>");
                    in_sub = false;
                } else if i > 0 {
                    out.push_str("</li>");
                }
                out.push_str(&format!("<li>{item}"));
            }
            _ => {
                if !in_sub {
                    out.push_str("<ol>");
                    in_sub = true;
                }
                out.push_str(&format!("<li>{item}</li>"));
            }
        }
    }
    if in_sub {
        out.push_str("</ol>");
    }
    out.push_str("</li></ol></nav>");
    out
}

/// The whole page: template + rendered post + filled fallbacks.
pub fn render_page(source: &str, template: &str) -> Result<String, Error> {
    let (meta, body) = front_matter::parse(source).map_err(Error::FrontMatter)?;
    let expanded = expand(body)?;
    let (html_body, headings) = render_body(&expanded.markdown);
    let html_body = insert_figures(&html_body, &expanded.figures)?.replace(TOC_MARKER, &toc(&headings));
    // The template's footer names the releases too; its own placeholders are filled below.
    let template = release_text::expand_keeping(template, &["title", "description", "author", "date", "body"])
        .map_err(Error::Template)?;
    let page = template
        .replace("{{title}}", &escape_html(&meta.title))
        .replace("{{description}}", &escape_html(&meta.description))
        .replace("{{author}}", &escape_html(&meta.author))
        .replace("{{date}}", &escape_html(&meta.date))
        .replace("{{body}}", &html_body);
    fallback::fill_page(&page).map_err(Error::Fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_cells_carry_their_column_heading() {
        let (html, _) = render_body("| Runtime | Since |\n|---|---|\n| `torch` | v2.0 |\n");
        assert!(
            html.contains("<td data-label=\"Runtime\"><code>torch</code></td><td data-label=\"Since\">v2.0</td>"),
            "{html}"
        );
    }

    #[test]
    fn slugs_are_stable() {
        assert_eq!(slug("Kueue & gang scheduling!"), "kueue-gang-scheduling");
    }

    const PYTHON: &str =
        "<!-- snippet query=persona=data-scientist,framework=pytorch,nodes=2,gpus=1 api=v2 language=python -->";

    fn rendered(body: &str) -> Result<String, Error> {
        let expanded = expand(body)?;
        insert_figures(&render_body(&expanded.markdown).0, &expanded.figures)
    }

    #[test]
    fn a_figure_with_blank_lines_in_its_code_is_inserted_whole() {
        let Some(Ok(Directive::Snippet(snippet))) = directives::parse(PYTHON) else { panic!("{PYTHON}") };
        assert!(snippet.code.contains("\n\n"), "the case that broke: blank lines inside the code");
        let figure = explorer_html::fallback::snippet_html(&snippet);
        // After a paragraph, in a list item and at the end of the body.
        for body in
            [format!("Text.\n\n{PYTHON}\n\nMore text.\n"), format!("- item\n\n  {PYTHON}\n"), PYTHON.to_string()]
        {
            let html = rendered(&body).unwrap();
            assert_eq!(html.matches(&figure).count(), 1, "{body}\n{html}");
            assert!(!html.contains("&lt;span"), "{html}");
            assert_eq!(html.matches("<pre").count(), 1, "{html}");
        }
    }

    #[test]
    fn a_snippet_directive_the_markdown_does_not_pass_through_is_an_error() {
        let err = rendered(&format!("```\n{PYTHON}\n```\n")).unwrap_err();
        assert!(matches!(err, Error::Figure { snippet: 1, .. }), "{err}");
        assert!(err.to_string().starts_with("snippet 1: its marker"), "{err}");
    }
}
