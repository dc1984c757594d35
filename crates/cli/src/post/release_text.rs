//! The post's release facts, taken from `releases.rs` rather than typed into the prose: the
//! "runtimes by release" table and the `{{…}}` placeholders that put a release line, a tag or an
//! SDK version into a sentence. A new release entry updates them all on `make post`, and
//! `post --check` fails until it is run.
//!
//! Placeholders (each inside `{{` and `}}`, anywhere in a line, code spans included):
//! - `newest`, `newest-line`, `newest-version`, `newest-sdk`, `oldest-line`: the newest release's
//!   tag (`v2.3.0`), its line (`v2.3`), its tag without the `v` (the Helm chart's version), its
//!   paired `kubeflow` SDK version; the oldest release line;
//! - `v1-operator`, `v1-sdk`: what the V1 panes compare with;
//! - `since FACT` / `removed FACT`: the first release line where FACT holds, or the first after
//!   that where it no longer does. FACT is `runtime=NAME`, `policy=A,B` (every listed `mlPolicy`
//!   source; they must agree), `torch-field=NAME`, `trainjob-field=NAME`, `gang-scheduler=NAME`,
//!   `trainer-status` (the TrainJob's `status.trainerStatus`), `volume-claims` (JobSet creates the TorchTune
//!   volume) or `mpi-launcher-waits` (the MPI launcher starts after the nodes);
//! - `runtimes framework=LABEL`: the newest release's built-in runtimes with that framework label,
//!   as a list in words.
//!
//! An unknown placeholder, or a fact the data does not hold, is an error, not text in the post.

use crate::catalog::{V1_OPERATOR, V1_SDK};
use crate::releases::{Release, NEWEST, RELEASES};

/// One placeholder's value.
fn value(placeholder: &str) -> Result<String, String> {
    let (name, arg) = placeholder.split_once(' ').unwrap_or((placeholder, ""));
    Ok(match (name, arg) {
        ("newest", "") => NEWEST.tag.to_string(),
        ("newest-line", "") => NEWEST.line.to_string(),
        ("newest-version", "") => NEWEST.tag.trim_start_matches('v').to_string(),
        ("newest-sdk", "") => NEWEST.sdk.to_string(),
        ("oldest-line", "") => RELEASES[0].line.to_string(),
        ("v1-operator", "") => V1_OPERATOR.to_string(),
        ("v1-sdk", "") => V1_SDK.to_string(),
        ("since", fact) => since(fact)?.line.to_string(),
        ("removed", fact) => removed(fact)?.line.to_string(),
        ("runtimes", arg) => {
            let label = arg.strip_prefix("framework=").ok_or(format!("{{{{runtimes {arg}}}}}: expected framework="))?;
            let names: Vec<String> =
                NEWEST.runtimes.iter().filter(|r| r.framework == label).map(|r| format!("`{}`", r.name)).collect();
            in_words(&names).ok_or(format!("{} has no runtime labelled {label}", NEWEST.tag))?
        }
        _ => return Err(format!("unknown placeholder {{{{{placeholder}}}}}")),
    })
}

/// `a`, `a and b`, `a, b and c`.
fn in_words(items: &[String]) -> Option<String> {
    let (last, rest) = items.split_last()?;
    Some(if rest.is_empty() { last.clone() } else { format!("{} and {last}", rest.join(", ")) })
}

/// Whether a release has a fact, for each fact the placeholders can name.
fn holds(fact: &str, release: &Release) -> Result<bool, String> {
    let (kind, name) = fact.split_once('=').unwrap_or((fact, ""));
    Ok(match kind {
        "runtime" => release.runtime(name).is_some(),
        "policy" => release.policies.contains(&name),
        "torch-field" => release.torch_policy_fields.contains(&name),
        "trainjob-field" => match name {
            "activeDeadlineSeconds" => release.active_deadline_seconds,
            "labels" | "annotations" => release.trainjob_metadata,
            pod_settings => release.pod_settings.field() == pod_settings,
        },
        "gang-scheduler" => release.gang_schedulers.contains(&name),
        "trainer-status" => release.trainer_status,
        "volume-claims" => release.jobset_volume_claims,
        "mpi-launcher-waits" => release.mpi_launcher_waits_for_nodes,
        _ => return Err(format!("unknown release fact {fact:?}")),
    })
}

/// The facts a placeholder names: `policy=jax,xgboost` is two.
fn facts(fact: &str) -> Vec<String> {
    match fact.split_once('=') {
        Some((kind, names)) => names.split(',').map(|n| format!("{kind}={n}")).collect(),
        None => vec![fact.to_string()],
    }
}

/// The one answer every listed fact gives, or an error naming the first that disagrees.
fn agreed(fact: &str, each: impl Fn(&str) -> Result<Release, String>) -> Result<Release, String> {
    let mut answer: Option<Release> = None;
    for f in facts(fact) {
        let r = each(&f)?;
        match answer {
            Some(a) if a.line != r.line => return Err(format!("{fact}: {f} gives {}, the others {}", r.line, a.line)),
            _ => answer = Some(r),
        }
    }
    answer.ok_or(format!("{fact}: nothing to look up"))
}

/// The first release line where the fact holds.
pub fn since(fact: &str) -> Result<Release, String> {
    agreed(fact, |f| {
        for r in RELEASES {
            if holds(f, r)? {
                return Ok(*r);
            }
        }
        Err(format!("no release has {f}"))
    })
}

/// The first release line, after the fact arrived, where it no longer holds.
pub fn removed(fact: &str) -> Result<Release, String> {
    agreed(fact, |f| {
        let first = since(f)?;
        for r in RELEASES.iter().skip_while(|r| r.line != first.line) {
            if !holds(f, r)? {
                return Ok(*r);
            }
        }
        Err(format!("{f} still holds in {}", NEWEST.tag))
    })
}

/// The line with every `{{…}}` replaced by its value.
pub fn expand(line: &str) -> Result<String, String> {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("{{") {
        let end = rest[start..].find("}}").ok_or(format!("unclosed {{{{ in {line:?}"))? + start;
        out.push_str(&rest[..start]);
        out.push_str(&value(rest[start + 2..end].trim())?);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The built-in runtimes of every release line as a Markdown table: one row per runtime that
/// any release installs, in order of arrival, with the release that added it and the one that
/// removed it.
pub fn runtimes_table() -> String {
    let mut names: Vec<&str> = Vec::new();
    for r in RELEASES {
        for rt in r.runtimes {
            if !names.contains(&rt.name) {
                names.push(rt.name);
            }
        }
    }
    // Three narrow columns, so a 375 px phone shows all of them.
    let mut out = String::from("| Built-in runtime | Since | Removed |\n|---|---|---|\n");
    for name in names {
        let (since, removed) = Release::life_span(name);
        out.push_str(&format!(
            "| `{name}` | {} | {} |\n",
            since.map_or("", |r| r.line),
            removed.map_or("–", |r| r.line)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_read_the_release_data() {
        assert_eq!(
            expand("Trainer {{newest}} ({{ newest-line }})").unwrap(),
            format!("Trainer {} ({})", NEWEST.tag, NEWEST.line)
        );
        assert_eq!(expand("no placeholder").unwrap(), "no placeholder");
        assert_eq!(since("runtime=mpi-distributed").unwrap().line, "v2.0");
        assert_eq!(removed("runtime=mpi-distributed").unwrap().line, "v2.1");
        assert_eq!(since("policy=jax,xgboost,flux").unwrap().line, "v2.2");
        assert_eq!(removed("torch-field=numProcPerNode").unwrap().line, "v2.2");
        assert_eq!(since("trainjob-field=podTemplateOverrides").unwrap().line, "v2.1");
        assert_eq!(removed("trainjob-field=labels").unwrap().line, "v2.2");
        // FACTS.md §a.4 (volcano v2.1), §a.3 (trainerStatus v2.2, #3227), §b.2 (volumeClaimPolicies
        // v2.2, #3150); the v2.3 MPI launcher waits for the nodes (v2-runtimes/v2.2.1 vs v2.3.0).
        assert_eq!(since("gang-scheduler=volcano").unwrap().line, "v2.1");
        assert_eq!(since("trainer-status").unwrap().line, "v2.2");
        assert_eq!(since("volume-claims").unwrap().line, "v2.2");
        assert_eq!(since("mpi-launcher-waits").unwrap().line, "v2.3");
    }

    #[test]
    fn a_placeholder_the_data_cannot_answer_is_an_error() {
        for bad in [
            "{{newset}}",
            "{{since runtime=tensorflow-distributed}}",
            "{{removed runtime=torch-distributed}}",
            "{{since policy=torch,jax}}",
            "{{since color=blue}}",
            "{{runtimes framework=tensorflow}}",
            "{{newest",
        ] {
            assert!(expand(bad).is_err(), "{bad}");
        }
    }
}
