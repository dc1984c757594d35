//! `--format json`: per document of the stream, what became of it, the objects it was written
//! as and its report, in one shape for both front ends (a migration adds its pod comparison).

use super::{Document, Outcome, Wording};
use serde_json::{json, Value};

/// One document: `{document, line, outcome, kind, name}`, and for a written one `lossy`,
/// `objects` and `report` (each entry as the front end words it), for a failed one `reason`.
pub fn document_json(d: &Document, wording: &impl Wording) -> Value {
    let mut out = json!({"document": d.index, "line": d.line});
    let (outcome, name, kind) = match &d.outcome {
        Outcome::Written { name, kind, .. } => (wording.written(), Some(name), Some(kind)),
        Outcome::Refused { name, kind, .. } => ("refused", Some(name), Some(kind)),
        Outcome::PassedThrough { name, kind, .. } => ("passed-through", Some(name), Some(kind)),
        Outcome::Invalid { .. } => ("invalid", None, None),
    };
    out["outcome"] = outcome.into();
    out["kind"] = kind.map_or(Value::Null, |k| Value::from(k.as_str()));
    out["name"] = name.map_or(Value::Null, |n| Value::from(n.as_str()));
    match &d.outcome {
        Outcome::Written { objects, report, lossy, .. } => {
            out["lossy"] = Value::from(*lossy);
            out["objects"] = Value::Array(objects.clone());
            out["report"] = report.iter().map(|e| wording.entry_json(e)).collect();
        }
        Outcome::Refused { reason, .. } => out["reason"] = reason.to_string().into(),
        Outcome::Invalid { error } => out["reason"] = error.to_string().into(),
        Outcome::PassedThrough { .. } => {}
    }
    out
}
