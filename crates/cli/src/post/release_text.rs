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
//!   as a list in words;
//! - `newest-jobset`, `newest-min-kubernetes`: the JobSet the newest release installs and the
//!   oldest Kubernetes its installation guide names;
//! - `newest-kueue`, `oldest-kueue`: the Kueue releases that queue the newest release's TrainJobs,
//!   and the first Kueue release with a TrainJob integration (`kueue.rs`);
//! - `command-item-max newest` / `before-newest`: the longest `trainer.command` item the newest
//!   release's TrainJob CRD accepts, or the one before it;
//! - `gate-off FACT`: the feature gate FACT needs in the newest release (`alpha feature gate
//!   `RestartJob``), for a sentence that says it is off by default: an error once it is on;
//! - `sdk-since FACT`: the `kubeflow` SDK paired with the first release line where FACT holds
//!   (`namespaced-runtimes`: its `train()` can use a namespaced `TrainingRuntime`;
//!   `sdk-reports-status`: it has `update_trainjob_status()`);
//! - `newest-without FACT`: the newest tag, for a sentence that says FACT does not hold yet
//!   ("no release up to v2.3.0 has the OptimizationJob API"). Once a release entry has FACT it is
//!   an error, so the sentence is rewritten instead of naming a release it is false for.
//!
//! FACT may also be `runtime-snapshot`, `int-procs` (`numProcPerNode` takes integers only),
//! `torchtune-lora`, `webhook-label` (the built-ins skip the validating webhook),
//! `crds-in-chart`, `jobset-restart-job`, `runtime-finalizer`, `patches-whole-jobset` (a
//! TrainJob's `runtimePatches` merge over the whole JobSet spec), `optimization-job-kep` or
//! `optimization-job-api`.
//!
//! The page template (post/page.html) takes the same placeholders, for its footer. The
//! `<!-- v1-to-v2 -->` table comes from here too: each framework's V1 kind (catalog) next to
//! the newest release's runtime for it.
//!
//! An unknown placeholder, or a fact the data does not hold, is an error, not text in the post.

use explorer_data::api_changes::Subject;
use explorer_data::catalog::{Framework, V2Support, V1_OPERATOR, V1_SDK};
use explorer_data::kueue::{kueue_for, KUEUE_RANGES};
use explorer_data::releases::{
    FeatureGate, GateStage, NumProcPerNode, Release, SdkNamespacedRuntimes, TorchTuneRules, NEWEST, RELEASES,
};

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
        ("newest-jobset", "") => NEWEST.jobset.to_string(),
        ("newest-min-kubernetes", "") => {
            NEWEST.min_kubernetes.ok_or(format!("{} names no minimum Kubernetes", NEWEST.tag))?.to_string()
        }
        ("since", fact) => since(fact)?.line.to_string(),
        ("removed", fact) => removed(fact)?.line.to_string(),
        ("sdk-since", fact) => since(fact)?.sdk.to_string(),
        ("newest-without", fact) => {
            if holds(fact, &NEWEST)? {
                return Err(format!(
                    "{{{{newest-without {fact}}}}}: {} has {fact}, so the sentence around it is no longer true",
                    NEWEST.tag
                ));
            }
            NEWEST.tag.to_string()
        }
        ("newest-kueue", "") => {
            let k = kueue_for(&NEWEST).ok_or(format!("no Kueue release writes {}", NEWEST.pod_settings().field()))?;
            format!("{} to {}", k.first, k.last)
        }
        ("command-item-max", which) => {
            let release = match which {
                "newest" => NEWEST,
                "before-newest" => RELEASES[RELEASES.len() - 2],
                _ => return Err(format!("{{{{command-item-max {which}}}}}: expected newest or before-newest")),
            };
            size_in_words(
                command_item_max(&release).ok_or(format!("{}'s CRD sets no command item length", release.tag))?,
            )
        }
        ("oldest-kueue", "") => KUEUE_RANGES[0].first.to_string(),
        ("gate-off", fact) => {
            let gate = gate(fact)?;
            if gate.default_on {
                return Err(format!("{{{{gate-off {fact}}}}}: {} is on by default in {}", gate.name, NEWEST.tag));
            }
            let stage = match gate.stage {
                GateStage::Alpha => "alpha",
                GateStage::Beta => "beta",
            };
            format!("{stage} feature gate `{}`", gate.name)
        }
        ("runtimes", arg) => {
            let label = arg.strip_prefix("framework=").ok_or(format!("{{{{runtimes {arg}}}}}: expected framework="))?;
            let names: Vec<String> =
                NEWEST.runtimes.iter().filter(|r| r.framework == label).map(|r| format!("`{}`", r.name)).collect();
            in_words(&names).ok_or(format!("{} has no runtime labelled {label}", NEWEST.tag))?
        }
        _ => return Err(format!("unknown placeholder {{{{{placeholder}}}}}")),
    })
}

/// The longest item of a TrainJob's `spec.trainer.command` the release's CRD accepts, in bytes
/// (the CRD's `maxLength`, read from the schema by crates/core/tests/it/crd_rules.rs).
fn command_item_max(release: &Release) -> Option<u64> {
    use explorer_core::explain::crd::{checks, Check};
    let crd = checks(release.tag, "TrainJob")?;
    let node = crd.nodes.iter().find(|n| n.path == "spec.trainer.command[]")?;
    node.checks.iter().find_map(|c| match c {
        Check::MaxLength(n) => Some(*n),
        _ => None,
    })
}

/// `64 KiB`, `1 MiB`: a power-of-two size as a reader writes it.
fn size_in_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The feature gate a fact needs in the newest release.
fn gate(fact: &str) -> Result<FeatureGate, String> {
    match fact {
        "trainer-status" => NEWEST.trainer_status,
        "jobset-restart-job" => NEWEST.jobset_restart_job,
        _ => return Err(format!("{fact:?} has no feature gate")),
    }
    .ok_or(format!("{} does not have {fact}", NEWEST.tag))
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
        "torch-field" => release.torch_policy_fields().contains(&name),
        "trainjob-field" => match name {
            "activeDeadlineSeconds" => release.declares(Subject::TrainJob, "spec.activeDeadlineSeconds"),
            "labels" | "annotations" => release.declares(Subject::TrainJob, "spec.labels"),
            pod_settings => release.pod_settings().field() == pod_settings,
        },
        "gang-scheduler" => release.gang_schedulers.contains(&name),
        "trainer-status" => release.trainer_status.is_some(),
        "volume-claims" => release.jobset_volume_claims,
        "mpi-launcher-waits" => release.mpi_launcher_waits_for_nodes,
        "runtime-snapshot" => release.controller.runtime_snapshot,
        "int-procs" => release.num_proc_per_node == NumProcPerNode::Int32,
        "torchtune-lora" => release.controller.torchtune != TorchTuneRules::FullOnly,
        "webhook-label" => release.builtins_skip_webhook,
        "crds-in-chart" => release.crds_in_chart,
        "jobset-restart-job" => release.jobset_restart_job.is_some(),
        "runtime-finalizer" => release.runtime_finalizer,
        "sdk-reports-status" => release.sdk_reports_status,
        "patches-whole-jobset" => release.runtime_patches_whole_jobset,
        "optimization-job-kep" => release.optimization_job_kep,
        "optimization-job-api" => release.optimization_job_api,
        "namespaced-runtimes" => release.sdk_namespaced_runtimes == SdkNamespacedRuntimes::Supported,
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
pub(super) fn since(fact: &str) -> Result<Release, String> {
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
pub(super) fn removed(fact: &str) -> Result<Release, String> {
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
pub(super) fn expand(line: &str) -> Result<String, String> {
    expand_keeping(line, &[])
}

/// The text with every `{{…}}` replaced by its value, except the placeholders named in `keep`,
/// which are left as they are (the page template's `{{title}}` and `{{body}}`).
pub(super) fn expand_keeping(text: &str, keep: &[&str]) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let end = rest[start..].find("}}").ok_or(format!("unclosed {{{{ in {text:?}"))? + start;
        out.push_str(&rest[..start]);
        let name = rest[start + 2..end].trim();
        if keep.contains(&name) {
            out.push_str(&rest[start..end + 2]);
        } else {
            out.push_str(&value(name)?);
        }
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// What each framework used in V1 and what the newest release has for it, as a Markdown table:
/// the V1 kind from the catalog, the runtime from the release data.
pub fn v1_to_v2_table() -> String {
    let mut out = String::from("| V1 | V2 runtime |\n|---|---|\n");
    for framework in Framework::ALL {
        out.push_str(&format!("| {} | {} |\n", v1_way(framework), v2_way(framework)));
    }
    out
}

fn v1_way(framework: Framework) -> String {
    let kind = framework.v1_kind().kind();
    match framework {
        // V1's SDK created the PyTorchJob itself.
        Framework::TorchTune => {
            "LLM fine-tuning of a Hugging Face model of your choice with `TrainingClient.train()`".into()
        }
        Framework::Mpi => format!("plain `{kind}`"),
        Framework::DeepSpeed | Framework::Mlx => format!("`{kind}` running {}", framework.label()),
        _ => format!("`{kind}`"),
    }
}

fn v2_way(framework: Framework) -> String {
    match (framework.v2_support(), NEWEST.builtin_for(framework)) {
        (V2Support::BuiltIn, Some(_)) if framework == Framework::TorchTune => {
            "`BuiltinTrainer` on a TorchTune runtime; any other model with your own code in a `CustomTrainer`".into()
        }
        (V2Support::BuiltIn, Some(runtime)) => format!("`{}`", runtime.name),
        (V2Support::CustomRuntime, _) => {
            format!("a runtime you write with `mlPolicy.{}`", framework.ml_policy().unwrap_or("mpi"))
        }
        (V2Support::GeneratedRuntime, _) => format!(
            "none upstream: `migrate` writes a plain-ML runtime for each job that keeps {}",
            if framework == Framework::TensorFlow { "`TF_CONFIG`" } else { "the `PADDLE_*` variables" }
        ),
        _ => format!("no equivalent in {}: keep it on {V1_OPERATOR}", NEWEST.tag),
    }
}

/// Which Kueue releases queue each release line's TrainJobs, as a Markdown table: the field the
/// release keeps per-job pod settings in, and the Kueue releases that write that field.
pub fn kueue_table() -> String {
    let mut out = String::from("| Trainer | Kueue writes | Kueue releases |\n|---|---|---|\n");
    for r in RELEASES {
        let field = r.pod_settings().field();
        let kueue = kueue_for(r).map_or("none".to_string(), |k| format!("{} to {}", k.first, k.last));
        out.push_str(&format!("| {} | `{field}` | {kueue} |\n", r.line));
    }
    out
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
        // runtime/core/snapshot.go and the webhook-validation label are new in v2.3.0 (#3580,
        // #3683); numProcPerNode is int32 from v2.2 (#3239); LoRA recipes from v2.1 (#2832);
        // the CRDs moved into the chart in v2.3 (#3655); JobSet v0.12.0's RestartJob first
        // appears in the v2.3.0 runtime CRDs; the OptimizationJob KEP ships in v2.3.0, its API in
        // no release yet (FACTS.md §a.1).
        assert_eq!(since("runtime-snapshot").unwrap().line, "v2.3");
        assert_eq!(since("webhook-label").unwrap().line, "v2.3");
        assert_eq!(since("int-procs").unwrap().line, "v2.2");
        assert_eq!(since("torchtune-lora").unwrap().line, "v2.1");
        assert_eq!(since("crds-in-chart").unwrap().line, "v2.3");
        assert_eq!(since("jobset-restart-job").unwrap().line, "v2.3");
        assert_eq!(since("optimization-job-kep").unwrap().line, "v2.3");
        assert!(since("optimization-job-api").is_err());
        // Kueue v0.17 on writes runtimePatches, the v2.2 and v2.3 field (kueue.rs).
        assert_eq!(expand("{{newest-kueue}}").unwrap(), "v0.17.0 to v0.19.2");
        // JobSet v0.12.0: pkg/features/features.go:48,73.
        assert_eq!(expand("{{gate-off jobset-restart-job}}").unwrap(), "alpha feature gate `RestartJob`");
        assert_eq!(expand("{{gate-off trainer-status}}").unwrap(), "alpha feature gate `TrainJobStatus`");
        assert!(expand("{{gate-off int-procs}}").is_err());
        assert_eq!(removed("runtime-finalizer").unwrap().line, "v2.3");
        assert_eq!(since("patches-whole-jobset").unwrap().line, "v2.3");
        assert_eq!(expand("{{sdk-since sdk-reports-status}}").unwrap(), "0.5.0");
        // The TrainJob CRDs: items of 65536 bytes at v2.2.1, 1048576 at v2.3.0 (#3689).
        assert_eq!(
            expand("{{command-item-max before-newest}} to {{command-item-max newest}}").unwrap(),
            "64 KiB to 1 MiB"
        );
        // SDK 0.5.0's train() writes runtimeRef.kind (backend.py:850); 0.4.1's does not (:801).
        assert_eq!(expand("{{sdk-since namespaced-runtimes}}").unwrap(), "0.5.0");
        assert_eq!(expand("{{newest-jobset}}, {{newest-min-kubernetes}}").unwrap(), format!("{}, 1.31", NEWEST.jobset));
    }

    #[test]
    fn a_sentence_about_what_no_release_has_yet_fails_once_one_has_it() {
        assert_eq!(expand("{{newest-without optimization-job-api}}").unwrap(), NEWEST.tag);
        // The KEP is in the newest release: a sentence saying it is not would be false.
        let err = expand("{{newest-without optimization-job-kep}}").unwrap_err();
        assert!(err.contains("no longer true"), "{err}");
    }

    #[test]
    fn the_template_keeps_its_own_placeholders() {
        let footer = expand_keeping("<title>{{title}}</title><p>Trainer {{newest}}</p>", &["title"]).unwrap();
        assert_eq!(footer, format!("<title>{{{{title}}}}</title><p>Trainer {}</p>", NEWEST.tag));
        assert!(expand_keeping("{{title}}", &[]).is_err());
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
