//! `index.html`: the Markdown rendered with heading anchors, a table of contents, the
//! core's snippets and the widget mount points with their static fallback.

use super::directives::{self, Directive};
use super::front_matter;
use crate::fallback;
use crate::highlight::escape_html;
use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

const TOC_MARKER: &str = "<!--TOC-->";

/// Expands the directives into HTML blocks, line by line.
fn expand(body: &str) -> Result<String, String> {
    let mut out = String::with_capacity(body.len() * 2);
    for (n, line) in body.lines().enumerate() {
        match directives::parse(line) {
            None => out.push_str(line),
            Some(Err(e)) => return Err(format!("post line {}: {e}", n + 1)),
            Some(Ok(Directive::Toc)) => out.push_str(TOC_MARKER),
            Some(Ok(Directive::Snippet(s))) => out.push_str(&fallback::snippet_html(&s)),
            Some(Ok(Directive::Explorer { attrs })) => {
                directives::check_explorer(&attrs).map_err(|e| format!("post line {}: {e}", n + 1))?;
                out.push_str(&directives::explorer_html(&attrs));
            }
        }
        out.push('\n');
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
    (out, headings)
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
pub fn render_page(source: &str, template: &str) -> Result<String, String> {
    let (meta, body) = front_matter::parse(source)?;
    let expanded = expand(body)?;
    let (html_body, headings) = render_body(&expanded);
    let html_body = html_body.replace(TOC_MARKER, &toc(&headings));
    let page = template
        .replace("{{title}}", &escape_html(&meta.title))
        .replace("{{description}}", &escape_html(&meta.description))
        .replace("{{author}}", &escape_html(&meta.author))
        .replace("{{date}}", &escape_html(&meta.date))
        .replace("{{body}}", &html_body);
    fallback::fill_page(&page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_stable() {
        assert_eq!(slug("Kueue & gang scheduling!"), "kueue-gang-scheduling");
    }
}
