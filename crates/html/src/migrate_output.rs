//! The converted objects as HTML, the way Kubernetes' own docs offer a sample: one block per
//! object, in the order to apply them (`pipeline::output`), each captioned by its file name, with
//! a Copy button and a download, and the `kubectl apply -f` line for them all. All text escaped;
//! rendered by the converter module, which also wires the Copy buttons (`button.copy[data-copy]`:
//! they copy the `<pre>` of their figure), so the widget's wasm carries none of it.

use crate::highlight::{push_escaped_html, push_lines};
use explorer_core::pipeline::output::{apply_command, objects_and_stream, output_objects, OutputObject};
use explorer_core::pipeline::Document;
use explorer_core::snippets::Language;
use explorer_data::releases::Release;
use std::fmt::Write;

/// Larger objects get no download link: it would carry the whole text a second time, encoded.
/// The Copy button and the CLI (`trainer-explorer migrate`) still take them.
const MAX_DOWNLOAD_BYTES: usize = 512 * 1024;

/// The text as a `data:` URL's payload: everything but unreserved characters percent-encoded.
/// The two hex digits come from a table, not the formatter: a download of up to 512 KB is a
/// million escapes, and `write!` per byte was a third of the objects' HTML on 1,000 jobs.
fn percent_encoded(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len() * 3 / 2);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
    out
}

/// A figure with a caption, optional download link, a Copy button and the code.
/// `class` is `obj` (an object's YAML) or `apply` (the shell line, not highlighted).
fn push_block(out: &mut String, class: &str, title: &str, download: Option<(&str, &str)>, code: &str) {
    let yaml = if class == "obj" { " yaml" } else { "" };
    let _ = write!(out, "<figure class=\"snippet{yaml} {class}\"><figcaption><span class=\"title\">");
    push_escaped_html(out, title);
    out.push_str("</span><span class=\"acts\">");
    if let Some((file, text)) = download {
        if text.len() <= MAX_DOWNLOAD_BYTES {
            out.push_str("<a class=\"download\" download=\"");
            push_escaped_html(out, file);
            out.push_str("\" href=\"data:application/yaml;charset=utf-8,");
            out.push_str(&percent_encoded(text));
            out.push_str("\">Download</a>");
        }
    }
    out.push_str("<button type=\"button\" class=\"copy\" data-copy aria-label=\"Copy ");
    push_escaped_html(out, title);
    out.push_str("\">Copy</button></span></figcaption><pre tabindex=\"0\" aria-label=\"");
    push_escaped_html(out, title);
    out.push_str("\">");
    if yaml.is_empty() {
        // One line; wrapped, it goes on past `kubectl` (the widget's `.ln` and `.i2`).
        out.push_str("<code class=\"language-sh\"><span class=\"ln i2\">");
        push_escaped_html(out, code);
        out.push_str("</span></code>");
    } else {
        // The box wraps with the widget's "Wrap long lines" (a phone's default): each long line
        // hangs past its key, or does not wrap when it is too deep to (`push_lines`).
        out.push_str("<code>");
        push_lines(out, Language::Yaml, code, &[]);
        out.push_str("</code>");
    }
    out.push_str("</pre></figure>");
}

/// Past this many objects (a whole folder of jobs pasted at once) one block holds them all, in
/// apply order, saved as one file: a block per object would be a page of thousands of buttons.
pub const MAX_BLOCKS: usize = 40;

/// The objects' blocks and the apply line, written for `target`, or an empty string when
/// nothing was written.
pub fn output_html(docs: &[Document], target: Release) -> String {
    objects_html(output_objects(docs), target)
}

/// `output_html` and the objects' YAML as one stream (`Migration::output_yaml`), each object
/// emitted once for both.
pub fn output_html_and_yaml(docs: &[Document], target: Release) -> (String, String) {
    let (objects, yaml) = objects_and_stream(docs);
    (objects_html(objects, target), yaml)
}

/// The blocks of `objects` (in apply order) and their apply line.
fn objects_html(mut objects: Vec<OutputObject>, target: Release) -> String {
    if objects.is_empty() {
        return String::new();
    }
    if objects.len() > MAX_BLOCKS {
        let texts: Vec<&str> = objects.iter().map(|o| o.yaml.as_str()).collect();
        let all = OutputObject {
            file: "v2-objects.yaml".into(),
            kind: format!("{} objects", objects.len()),
            name: "in apply order".into(),
            yaml: texts.join("---\n"),
        };
        objects = vec![all];
    }
    let mut out = format!(
        "<div class=\"objects\" data-trainer=\"{tag}\"><p class=\"apply-intro\">Written for Trainer {tag}. Save each \
         object under its file name, then apply them in this order:</p>",
        tag = target.tag
    );
    push_block(&mut out, "apply", "Apply", None, &apply_command(&objects));
    for o in &objects {
        let title = format!("{} ({} {})", o.file, o.kind, o.name);
        push_block(&mut out, "obj", &title, Some((&o.file, &o.yaml)), &o.yaml);
    }
    // Where the Copy buttons' outcome is announced (pkg-migrate/converter.js).
    out.push_str("<span class=\"sr-only\" role=\"status\"></span></div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use explorer_core::migrate::migrate_to;
    use explorer_data::releases::NEWEST;

    const JOB: &str = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: mine\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: my/image:1\n            volumeMounts:\n            - name: data\n              mountPath: /data\n          volumes:\n          - name: data\n            emptyDir: {}\n";

    #[test]
    fn the_download_carries_the_object_exactly() {
        let m = migrate_to(JOB, NEWEST).unwrap();
        let html = output_html(&m.docs, m.target);
        let objects = output_objects(&m.docs);
        for o in &objects {
            let href = format!(
                "download=\"{}\" href=\"data:application/yaml;charset=utf-8,{}\"",
                o.file,
                percent_encoded(&o.yaml)
            );
            assert!(html.contains(&href), "{html}");
        }
        assert_eq!(html.matches("data-copy").count(), objects.len() + 1);
        // Decoding gives the text back.
        let encoded = percent_encoded("a: \"b\" # ü\n");
        assert_eq!(encoded, "a%3A%20%22b%22%20%23%20%C3%BC%0A");
    }
}
