//! What the API server checks against a release's CRDs when a TrainJob or a runtime is created:
//! the OpenAPI value constraints (enum, minimum, maximum, lengths, item counts, patterns) and
//! every `x-kubernetes-validations` CEL rule, at the schema node it is written on.
//!
//! The constraints and rules are data read from the CRDs themselves (`rules.rs`, generated from
//! `$TRAINER_REFERENCE/v2-crds/<tag>` by `crates/core/tests/it/crd_rules.rs`, which fails when the two
//! differ). The rules run in the `cel` crate (cel-rust), with the Kubernetes library functions
//! they call that cel-rust lacks added in `evaluate.rs`.
//!
//! What the API server does, followed here (k8s.io/apiextensions-apiserver, pkg/registry/
//! customresource/validator.go and pkg/apiserver/schema/cel/validation.go):
//! - the schema errors come first; one of a blocking type (`blocks_rules`: not supported, too
//!   long, too many, and strategy.go's required and type-invalid, which these checks do not make)
//!   leaves the CEL rules unchecked, and says that some were not checked;
//! - a rule runs on every value present at its node (each item of a list, each value of a
//!   map), never on an absent or null one;
//! - a transition rule (one that reads `oldSelf`) runs only on update: on create it is skipped,
//!   as are the rules under `status`, which a create drops;
//! - every failure is reported, not only the first, as `<path>: <error>`, the path `<nil>` for a
//!   rule on the object's root. The error text is Kubernetes 1.35's (kubernetes#132798,
//!   #133832): a failed rule names a scalar's value and leaves an object's or a list's out
//!   (`Invalid value: "hf:/x": <message>`, `<nil>: Invalid value: <message>`); earlier
//!   servers printed the schema type instead (`Invalid value: "string": <message>`).
//!
//! Left out: `required`, `format`, `minProperties`, `x-kubernetes-list-type` uniqueness, type
//! mismatches (the typed models refuse those on reading) and the CEL cost budget.

pub mod evaluate;
mod fields;
mod positions;
mod rules;
pub mod strict;
mod walk;

use super::{ErrorType, FieldPath, Rejection};
use serde_json::Value as Json;

/// One schema node with something to check, by path from the object's root: field names
/// separated by `.`, `[]` for every item of a list, `{}` for every value of a map
/// (`spec.runtimePatches[].manager`); the root is `""`.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The node's path: `.`-separated field names, `[]` for each list item, `{}` for each map value.
    pub path: &'static str,
    /// The schema's `type` (`""` for an int-or-string).
    pub ty: &'static str,
    /// What the node's CRD says about its value, in the CRD's order.
    pub checks: &'static [Check],
}

/// One constraint of a schema node, as the CRD writes it.
#[derive(Clone, Copy, Debug)]
pub enum Check {
    /// An `x-kubernetes-validations` entry. `transition`: the rule reads `oldSelf`.
    Rule {
        /// The CEL expression.
        rule: &'static str,
        /// What the API server says when the rule fails.
        message: &'static str,
        /// Whether the rule reads `oldSelf` (run on update only).
        transition: bool,
    },
    /// `enum`: the values the field takes.
    Enum(&'static [&'static str]),
    /// `minimum`.
    Minimum(i64),
    /// `maximum`.
    Maximum(i64),
    /// `minLength`, in characters.
    MinLength(u64),
    /// `maxLength`, in characters.
    MaxLength(u64),
    /// `maxItems`.
    MaxItems(u64),
    /// `pattern`: an RE2 regular expression the string matches.
    Pattern(&'static str),
}

/// The checks of one kind's CRD at one release.
#[derive(Clone, Copy, Debug)]
pub struct CrdChecks {
    /// The release tag, `v2.3.0`.
    pub tag: &'static str,
    /// The kind, `TrainJob`.
    pub kind: &'static str,
    /// Its schema nodes that carry a check.
    pub nodes: &'static [Node],
}

/// Every release's and kind's checks.
pub fn all() -> &'static [CrdChecks] {
    rules::CRDS
}

/// The checks of `kind` (`TrainJob`, `TrainingRuntime`, `ClusterTrainingRuntime`) at `tag`.
pub fn checks(tag: &str, kind: &str) -> Option<&'static CrdChecks> {
    rules::CRDS.iter().find(|c| c.tag == tag && c.kind == kind)
}

/// Every error the API server of release `tag` gives when `object` (a whole TrainJob or runtime,
/// as JSON) is created, in the order described above. An unknown kind or tag has no checks.
pub fn validate(tag: &str, object: &Json) -> Vec<Rejection> {
    let kind = object.get("kind").and_then(Json::as_str).unwrap_or_default();
    let Some(crd) = checks(tag, kind) else { return Vec::new() };
    let mut schema_errors = Vec::new();
    let mut rule_errors = Vec::new();
    for (node, path, value) in walk::values_on_create(crd, object) {
        // `self` for the node's rules, bound once where it has any that runs on create (one that
        // reads `oldSelf` runs on update only).
        let runs_rules = node.checks.iter().any(|c| matches!(c, Check::Rule { transition: false, .. }));
        let rules_self = runs_rules.then(|| self_for_rules(node, value));
        let bound = rules_self.as_deref().map(evaluate::Bound::new);
        for check in node.checks {
            match *check {
                Check::Rule { transition: true, .. } => {}
                Check::Rule { rule, message, .. } => {
                    // Bound: this rule runs on create.
                    let Some(bound) = &bound else { continue };
                    if let Some((ty, detail)) = rule_failure(bound, rule, message, node.ty, value) {
                        rule_errors.push(Rejection::new(ty, FieldPath::parse(&path), detail));
                    }
                }
                _ => schema_errors.extend(
                    schema_failure(check, &path, value)
                        .map(|(ty, detail)| Rejection::new(ty, FieldPath::parse(&path), detail)),
                ),
            }
        }
    }
    if blocks_rules(&schema_errors) {
        schema_errors.push(Rejection::new(
            ErrorType::Invalid,
            FieldPath::root(),
            "null: some validation rules were not checked because the object was invalid; \
             correct the existing errors to complete validation",
        ));
        return schema_errors;
    }
    schema_errors.extend(rule_errors);
    schema_errors
}

/// What the node's rules see as `self`: `value`, or, when `value` is an object and every rule
/// reads `self` only as `self.<field>`, the object with only those fields. A TrainJob's root rule
/// reads its `metadata.name`; converting the whole TrainJob into CEL values for it cost more
/// than the rest of its checks. Every field a rule reads is there, with its value, so each rule
/// gives the same answer and the same error.
fn self_for_rules<'v>(node: &Node, value: &'v Json) -> std::borrow::Cow<'v, Json> {
    use std::borrow::Cow;
    let Json::Object(map) = value else { return Cow::Borrowed(value) };
    let mut read: Vec<&str> = Vec::new();
    for check in node.checks {
        if let Check::Rule { rule, transition: false, .. } = check {
            match fields_of_self(rule) {
                Some(fields) => read.extend(fields),
                None => return Cow::Borrowed(value),
            }
        }
    }
    let kept = map.iter().filter(|(k, _)| read.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone()));
    Cow::Owned(Json::Object(kept.collect()))
}

/// The fields of `self` that `rule` reads, when it reads `self` only as `self.<field>` (not
/// `self` itself, `self[...]`, `self.?x` or a method of `self` such as `self.all(...)`); `None`
/// otherwise. Text inside a string literal can only add a field, which keeps more than needed.
fn fields_of_self(rule: &str) -> Option<Vec<&str>> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = rule.as_bytes();
    let mut fields = Vec::new();
    for (at, _) in rule.match_indices("self") {
        let end = at + 4;
        if (at > 0 && ident(bytes[at - 1])) || bytes.get(end).copied().is_some_and(ident) {
            // Part of another name (`oldSelf` has a capital S; `myself`, `selfish`).
            continue;
        }
        if bytes.get(end) != Some(&b'.') {
            return None;
        }
        let name_len = bytes[end + 1..].iter().take_while(|c| ident(**c)).count();
        let after = rule[end + 1 + name_len..].trim_start();
        if name_len == 0 || after.starts_with('(') {
            return None;
        }
        fields.push(&rule[end + 1..end + 1 + name_len]);
    }
    Some(fields)
}

/// Whether a create checks `node`. With the status subresource (the TrainJob CRD has it;
/// runtimes have no status) a create drops `status` (customresource strategy PrepareForCreate),
/// so its rules never run on create.
fn runs_on_create(node: &Node) -> bool {
    node.path != "status" && !node.path.starts_with("status.")
}

/// Whether the schema errors leave the CEL rules unchecked, by their type
/// (apiextensions-apiserver pkg/registry/customresource/strategy.go `hasBlockingErr`).
fn blocks_rules(schema_errors: &[Rejection]) -> bool {
    schema_errors.iter().any(|e| {
        matches!(
            e.ty,
            ErrorType::NotSupported
                | ErrorType::Required
                | ErrorType::TooLong
                | ErrorType::TooMany
                | ErrorType::TypeInvalid
        )
    })
}

/// Every non-null value at `pattern` in `object`, with its concrete path as the schema
/// validator names it (`spec.runtimePatches[0].manager`, `spec.limits.cpu`). No CRD has a rule
/// under a map's values, where a CEL error would write the key as `[cpu]`.
pub fn values_at<'v>(object: &'v Json, pattern: &str) -> Vec<(String, &'v Json)> {
    let mut found = vec![(String::new(), object)];
    let steps = pattern.split('.').filter(|s| !s.is_empty());
    for step in steps {
        let (name, mut expansions) = match step.find(['[', '{']) {
            Some(i) => (&step[..i], &step[i..]),
            None => (step, ""),
        };
        found = found
            .into_iter()
            // The path grows in place: no new string for each step of each value.
            .filter_map(|(mut path, v)| {
                let child = v.as_object()?.get(name)?;
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(name);
                Some((path, child))
            })
            .collect();
        while !expansions.is_empty() {
            let each_item = expansions.starts_with("[]");
            expansions = &expansions[2..];
            found = found
                .into_iter()
                .flat_map(|(path, v)| -> Vec<(String, &Json)> {
                    match v {
                        Json::Array(items) if each_item => {
                            items.iter().enumerate().map(|(i, item)| (format!("{path}[{i}]"), item)).collect()
                        }
                        Json::Object(map) if !each_item => {
                            map.iter().map(|(k, item)| (format!("{path}.{k}"), item)).collect()
                        }
                        _ => Vec::new(),
                    }
                })
                .collect();
        }
    }
    found.retain(|(_, v)| !v.is_null());
    found
}

/// A scalar as Go's field errors print it (`%q` for strings, `%v` for numbers and booleans).
fn scalar(value: &Json) -> String {
    match value {
        Json::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// validation.go's error for a rule that is not true of `value` (bound to `self` in `bound`):
/// its type and detail, or `None` when it holds.
fn rule_failure(
    bound: &evaluate::Bound<'_>,
    rule: &str,
    message: &str,
    ty: &str,
    value: &Json,
) -> Option<(ErrorType, String)> {
    let outcome = bound.holds(rule);
    if matches!(outcome, Ok(true)) {
        return None;
    }
    // ruleMessageOrDefault.
    let message = if message.is_empty() { format!("failed rule: {}", rule.trim()) } else { message.to_string() };
    match outcome {
        Ok(true) => None,
        Ok(false) if ty == "object" || ty == "array" => Some((ErrorType::Invalid, message)),
        Ok(false) => Some((ErrorType::Invalid, format!("{}: {message}", scalar(value)))),
        // A runtime type mismatch, as an int-or-string field can give (`"x" > 0`).
        Err(evaluate::Failure::NoOverload) => Some((
            ErrorType::Invalid,
            format!(
                "{ty:?}: 'no such overload': call arguments did not match a supported operator, \
                 function or macro signature for rule: {message}"
            ),
        )),
        Err(evaluate::Failure::Other(err)) => {
            Some((ErrorType::Invalid, format!("{ty:?}: {err} evaluating rule: {message}")))
        }
    }
}

/// The OpenAPI schema validator's error for `check` on `value`, as the API server converts it
/// (validation.go kubeOpenAPIResultToFieldErrors; the texts are go-openapi's): its type and
/// detail, or `None`.
fn schema_failure(check: &Check, path: &str, value: &Json) -> Option<(ErrorType, String)> {
    let chars = || value.as_str().map(|s| s.chars().count() as u64);
    let number = || value.as_f64();
    match *check {
        Check::Enum(allowed) => {
            let ok = value.as_str().is_some_and(|s| allowed.contains(&s));
            (!ok).then(|| {
                let list: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
                (ErrorType::NotSupported, format!("{}: supported values: {}", scalar(value), list.join(", ")))
            })
        }
        Check::Minimum(min) => number().filter(|n| *n < min as f64).map(|_| {
            let detail = format!("{}: {path} in body should be greater than or equal to {min}", scalar(value));
            (ErrorType::Invalid, detail)
        }),
        Check::Maximum(max) => number().filter(|n| *n > max as f64).map(|_| {
            (ErrorType::Invalid, format!("{}: {path} in body should be less than or equal to {max}", scalar(value)))
        }),
        Check::MinLength(min) => chars().filter(|n| *n < min).map(|_| {
            (ErrorType::Invalid, format!("{}: {path} in body should be at least {min} chars long", scalar(value)))
        }),
        Check::MaxLength(max) => chars().filter(|n| *n > max).map(|_| {
            let unit = if max == 1 { "byte" } else { "bytes" };
            (ErrorType::TooLong, format!("may not be more than {max} {unit}"))
        }),
        Check::MaxItems(max) => match value {
            Json::Array(items) if items.len() as u64 > max => {
                let unit = if max == 1 { "item" } else { "items" };
                Some((ErrorType::TooMany, format!("{}: must have at most {max} {unit}", items.len())))
            }
            _ => None,
        },
        Check::Pattern(pattern) => {
            let text = value.as_str()?;
            // The patterns are checked to compile (crates/core/tests/it/crd_rules.rs).
            let re = evaluate::regex(pattern).ok()?;
            (!re.is_match(text))
                .then(|| (ErrorType::Invalid, format!("{}: {path} in body should match '{pattern}'", scalar(value))))
        }
        Check::Rule { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(ty: ErrorType, detail: &str) -> Rejection {
        Rejection::new(ty, FieldPath::parse("spec.x"), detail)
    }

    /// strategy.go's `hasBlockingErr` compares the type: a required or type-invalid error blocks
    /// the rules, though neither's text starts with a blocking word (`Required value`,
    /// `Invalid value: "string": …`), and a plain invalid value does not.
    #[test]
    fn a_rule_that_reads_self_only_by_field_sees_only_those_fields() {
        assert_eq!(fields_of_self("self.metadata.name.matches('^a$')"), Some(vec!["metadata"]));
        assert_eq!(fields_of_self("has(self.x) && size(self.y) > 0"), Some(vec!["x", "y"]));
        // `self` itself, a method of `self`, an index or an optional field: the whole value.
        for rule in ["self == oldSelf", "size(self) < 3", "self.all(k, k != '')", "self['a'] == 1", "self.?a"] {
            assert_eq!(fields_of_self(rule), None, "{rule}");
        }
        let node = Node {
            path: "",
            ty: "object",
            checks: &[Check::Rule { rule: "self.metadata.name == 'a'", message: "", transition: false }],
        };
        let value = serde_json::json!({"kind": "TrainJob", "metadata": {"name": "a"}, "spec": {"x": 1}});
        assert_eq!(*self_for_rules(&node, &value), serde_json::json!({"metadata": {"name": "a"}}));
        // The answer is the same as with the whole object bound.
        let rules_self = self_for_rules(&node, &value);
        let pruned = evaluate::Bound::new(&rules_self);
        assert!(matches!(pruned.holds("self.metadata.name == 'a'"), Ok(true)));
        assert!(matches!(pruned.holds("self.metadata.name == 'b'"), Ok(false)));
    }

    #[test]
    fn the_type_decides_which_schema_errors_block_the_rules() {
        for ty in [ErrorType::NotSupported, ErrorType::TooLong, ErrorType::TooMany] {
            assert!(blocks_rules(&[error(ty, "x")]), "{ty:?}");
        }
        assert!(blocks_rules(&[error(ErrorType::Required, "")]));
        assert!(blocks_rules(&[error(ErrorType::TypeInvalid, "\"string\": must be of type integer")]));
        assert!(!blocks_rules(&[error(ErrorType::Invalid, "\"string\": must be of type integer")]));
        // A message that reads like a blocking one is not one.
        assert!(!blocks_rules(&[error(ErrorType::Message, "Too many: 3: must have at most 2 items")]));
    }
}
