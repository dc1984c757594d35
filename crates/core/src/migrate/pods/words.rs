//! A pod setting said the way a platform engineer says it: an affinity term as "must run in the
//! same zone as pods with app in (mnist)", a node selector as "only on nodes labelled …", a
//! toleration as "may run on nodes tainted …", a GPU count as "nvidia.com/gpu: 8". The
//! comparison says each term one side has and the other lacks with these words, so a dropped
//! rule reads as what the scheduler stops doing, not as the leaves of its YAML.

use serde_json::Value as Json;

fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `topologyKey` as the place it groups by: the well-known keys by their name.
fn topology(key: &str) -> String {
    match key {
        "kubernetes.io/hostname" => "node (kubernetes.io/hostname)".into(),
        "topology.kubernetes.io/zone" | "failure-domain.beta.kubernetes.io/zone" => format!("zone ({key})"),
        "topology.kubernetes.io/region" | "failure-domain.beta.kubernetes.io/region" => format!("region ({key})"),
        other => format!("value of {other}"),
    }
}

/// One `matchExpressions` / `nodeSelectorTerms` requirement: `app in (mnist)`, `gpu exists`.
fn requirement(r: &Json) -> String {
    let key = r.get("key").map(text).unwrap_or_default();
    let values: Vec<String> = r.get("values").and_then(Json::as_array).into_iter().flatten().map(text).collect();
    let op = r.get("operator").map(text).unwrap_or_default();
    match op.as_str() {
        "In" => format!("{key} in ({})", values.join(", ")),
        "NotIn" => format!("{key} not in ({})", values.join(", ")),
        "Exists" => format!("{key} set"),
        "DoesNotExist" => format!("{key} not set"),
        "Gt" => format!("{key} > {}", values.join(", ")),
        "Lt" => format!("{key} < {}", values.join(", ")),
        other => format!("{key} {other} ({})", values.join(", ")),
    }
}

/// A label selector as `app=mnist and tier in (a, b)`; `any pod` when it selects everything.
fn selector(s: Option<&Json>) -> String {
    let Some(s) = s else { return "any pod".into() };
    let mut parts: Vec<String> = s
        .get("matchLabels")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={}", text(v)))
        .collect();
    parts.extend(s.get("matchExpressions").and_then(Json::as_array).into_iter().flatten().map(requirement));
    if parts.is_empty() {
        "any pod".into()
    } else {
        format!("pods with {}", parts.join(" and "))
    }
}

/// A pod (anti-)affinity term: `must run in the same zone (…) as pods with app in (mnist)`.
fn pod_term(term: &Json, anti: bool, required: bool) -> String {
    let verb = match (required, anti) {
        (true, false) => "must run in the same",
        (true, true) => "must not run in the same",
        (false, false) => "prefers the same",
        (false, true) => "prefers not the same",
    };
    let key = term.get("topologyKey").map(text).unwrap_or_default();
    let mut out = format!("{verb} {} as {}", topology(&key), selector(term.get("labelSelector")));
    if let Some(ns) = term.get("namespaces").and_then(Json::as_array).filter(|n| !n.is_empty()) {
        let ns: Vec<String> = ns.iter().map(text).collect();
        out.push_str(&format!(" in namespace {}", ns.join(", ")));
    }
    out
}

/// A node selector term: `nodes with gpu in (a100)`.
fn node_term(term: &Json) -> String {
    let parts: Vec<String> = ["matchExpressions", "matchFields"]
        .iter()
        .flat_map(|k| term.get(*k).and_then(Json::as_array).into_iter().flatten())
        .map(requirement)
        .collect();
    format!("nodes with {}", if parts.is_empty() { "any labels".into() } else { parts.join(" and ") })
}

/// Each rule of a pod's `affinity`, one sentence each, with how binding it is.
pub(crate) fn affinity_terms(affinity: Option<&Json>) -> Vec<String> {
    let Some(a) = affinity else { return vec![] };
    let mut out = Vec::new();
    for (kind, anti) in [("podAffinity", false), ("podAntiAffinity", true)] {
        let Some(p) = a.get(kind) else { continue };
        let name = if anti { "pod anti-affinity" } else { "pod affinity" };
        for term in
            p.get("requiredDuringSchedulingIgnoredDuringExecution").and_then(Json::as_array).into_iter().flatten()
        {
            out.push(format!("{} (required {name})", pod_term(term, anti, true)));
        }
        for w in p.get("preferredDuringSchedulingIgnoredDuringExecution").and_then(Json::as_array).into_iter().flatten()
        {
            let weight = w.get("weight").map(text).unwrap_or_default();
            let term = w.get("podAffinityTerm").unwrap_or(&Json::Null);
            out.push(format!("{} (preferred {name}, weight {weight})", pod_term(term, anti, false)));
        }
    }
    if let Some(n) = a.get("nodeAffinity") {
        let required = n.pointer("/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
        let terms: Vec<String> = required.and_then(Json::as_array).into_iter().flatten().map(node_term).collect();
        if !terms.is_empty() {
            out.push(format!("must run on {} (required node affinity)", terms.join(", or on ")));
        }
        for w in n.get("preferredDuringSchedulingIgnoredDuringExecution").and_then(Json::as_array).into_iter().flatten()
        {
            let weight = w.get("weight").map(text).unwrap_or_default();
            let term = node_term(w.get("preference").unwrap_or(&Json::Null));
            out.push(format!("prefers {term} (preferred node affinity, weight {weight})"));
        }
    }
    out
}

/// A node selector's labels, one phrase each: `only on nodes labelled gpu=a100`.
fn node_selector_terms(v: Option<&Json>) -> Vec<String> {
    v.and_then(Json::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("only on nodes labelled {k}={}", text(v)))
        .collect()
}

/// Each toleration: `may run on nodes tainted nvidia.com/gpu (NoSchedule)`.
fn toleration_terms(v: Option<&Json>) -> Vec<String> {
    v.and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|t| {
            let key = t.get("key").map(text);
            let taint = match (key, t.get("value").map(text)) {
                (None, _) => "with any taint".to_string(),
                (Some(k), Some(v)) => format!("tainted {k}={v}"),
                (Some(k), None) => format!("tainted {k}"),
            };
            let effect = t.get("effect").map(text).map_or(String::new(), |e| format!(" ({e})"));
            format!("may run on nodes {taint}{effect}")
        })
        .collect()
}

/// Each quantity of a container's resources (`{"limits":{...},"requests":{...}}` as the
/// comparison writes it): `nvidia.com/gpu limit 8`.
fn resource_terms(v: Option<&Json>) -> Vec<String> {
    let mut out = Vec::new();
    for list in ["requests", "limits"] {
        let one = if list == "requests" { "request" } else { "limit" };
        for (name, q) in v.and_then(|v| v.get(list)).and_then(Json::as_object).into_iter().flatten() {
            out.push(format!("{name} {one} {}", text(q)));
        }
    }
    out
}

/// The scheduling and resource rules one side has and the other lacks, in words: `dropped: …`
/// for V1's, `added: …` for V2's. Empty for a field these words do not cover.
pub(crate) fn changed_terms(field: &str, v1: Option<&str>, v2: Option<&str>) -> Vec<String> {
    // Only these fields have terms: any other's values are not read back from their text (every
    // difference of every job of a paste comes through here).
    if !matches!(field, "affinity" | "nodeSelector" | "tolerations" | "resources") {
        return Vec::new();
    }
    let parse = |s: Option<&str>| s.and_then(|s| serde_json::from_str::<Json>(s).ok());
    let (a, b) = (parse(v1), parse(v2));
    let terms = |v: Option<&Json>| -> Vec<String> {
        match field {
            "affinity" => affinity_terms(v),
            "nodeSelector" => node_selector_terms(v),
            "tolerations" => toleration_terms(v),
            "resources" => resource_terms(v),
            _ => vec![],
        }
    };
    let (ours, theirs) = (terms(a.as_ref()), terms(b.as_ref()));
    let mut out: Vec<String> = ours.iter().filter(|t| !theirs.contains(t)).map(|t| format!("dropped: {t}")).collect();
    out.extend(theirs.iter().filter(|t| !ours.contains(t)).map(|t| format!("added: {t}")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_required_pod_affinity_reads_as_where_the_pod_must_run() {
        let a = serde_json::json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
            "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["mnist"]}]},
            "topologyKey": "topology.kubernetes.io/zone"}]}});
        assert_eq!(
            affinity_terms(Some(&a)),
            ["must run in the same zone (topology.kubernetes.io/zone) as pods with app in (mnist) (required pod affinity)"]
        );
    }

    #[test]
    fn node_affinity_anti_affinity_and_gpus_read_in_words() {
        let a = serde_json::json!({
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "gpu.nvidia.com/class", "operator": "In", "values": ["A100"]}]}]}},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100,
                "podAffinityTerm": {"labelSelector": {"matchLabels": {"job": "x"}}, "topologyKey": "kubernetes.io/hostname"}}]}});
        assert_eq!(
            affinity_terms(Some(&a)),
            [
                "prefers not the same node (kubernetes.io/hostname) as pods with job=x (preferred pod anti-affinity, weight 100)",
                "must run on nodes with gpu.nvidia.com/class in (A100) (required node affinity)",
            ]
        );
        let gpus = changed_terms("resources", Some(r#"{"limits":{"nvidia.com/gpu":"8"}}"#), None);
        assert_eq!(gpus, ["dropped: nvidia.com/gpu limit 8"]);
    }
}
