//! Pure functions from a `Selection` to what both panes show. The widget, the CLI and the
//! page's static fallback all print what `render` returns.

pub mod generated;
pub mod python;
pub mod runtimes;
pub mod sdk_v1;
pub mod sdk_v2;
pub mod topics;
pub mod trainjob;
pub mod v1_jobs;
pub mod workload;

use crate::model::ToTree;
use crate::selection::{ParamKey, RuntimeScope, Selection};
use crate::snippets::runtimes::FRAMEWORK_LABEL;
use crate::yaml::{self, Line, PathSeg};
use explorer_data::catalog::{Framework, LlmModel, Persona, V2Support, V1_OPERATOR, V1_SDK};
use explorer_data::releases::{Release, RELEASES};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    V1,
    V2,
}

impl Api {
    pub fn id(self) -> &'static str {
        match self {
            Api::V1 => "v1",
            Api::V2 => "v2",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    Yaml,
    Python,
}

impl Language {
    pub fn id(self) -> &'static str {
        match self {
            Language::Yaml => "yaml",
            Language::Python => "python",
        }
    }
}

/// One copyable block of code.
#[derive(Clone, Debug, PartialEq)]
pub struct Snippet {
    pub api: Api,
    pub language: Language,
    pub title: String,
    pub code: String,
    /// Per line of `code`: true where a V1 line is infrastructure that a V2 runtime now owns.
    pub owned_by_runtime: Vec<bool>,
}

impl Snippet {
    fn yaml(api: Api, title: String, lines: Vec<Line>, mark: impl Fn(&[PathSeg]) -> bool) -> Snippet {
        let owned_by_runtime = lines.iter().map(|l| !l.path.is_empty() && mark(&l.path)).collect();
        Snippet { api, language: Language::Yaml, title, code: yaml::join(&lines), owned_by_runtime }
    }

    fn python(api: Api, title: String, code: String) -> Snippet {
        let owned_by_runtime = vec![false; code.lines().count()];
        Snippet { api, language: Language::Python, title, code, owned_by_runtime }
    }

    pub fn line_count(&self) -> usize {
        self.code.lines().count()
    }

    pub fn owned_count(&self) -> usize {
        self.owned_by_runtime.iter().filter(|b| **b).count()
    }
}

/// Shown instead of code where an API has nothing to offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub title: String,
    pub paragraphs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pane {
    pub api: Api,
    pub heading: String,
    pub snippets: Vec<Snippet>,
    pub notice: Option<Notice>,
}

impl Pane {
    /// Whether `other` shows the same code, block for block: what a reader would copy. Headings,
    /// titles and notices name the release or its SDK, so they are left out; a pane without code
    /// never matches.
    pub fn same_code(&self, other: &Pane) -> bool {
        !self.snippets.is_empty() && self.snippets.iter().map(|s| &s.code).eq(other.snippets.iter().map(|s| &s.code))
    }
}

/// Everything the widget shows for one selection.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub v2: Pane,
    pub v1: Pane,
    /// The "what changed" line.
    pub summary: String,
}

pub fn render(sel: &Selection) -> View {
    let v1 = v1_pane(sel);
    let v2 = v2_pane(sel);
    let summary = summary(sel, &v1, &v2);
    View { v2, v1, summary }
}

/// `uri` without its `hf://` scheme, every repetition of it, as `trim_start_matches("hf://")` did.
/// By hand: a `&str` pattern brings the standard library's two-way string searcher (3.7 KB) into
/// the widget's wasm; `strip_prefix` compares bytes.
fn without_hf_scheme(uri: &str) -> &str {
    let mut rest = uri;
    while let Some(after) = rest.strip_prefix("hf://") {
        rest = after;
    }
    rest
}

/// The flat list the CLI exports: V2 first, then V1.
pub fn all_snippets(sel: &Selection) -> Vec<Snippet> {
    let view = render(sel);
    view.v2.snippets.into_iter().chain(view.v1.snippets).collect()
}

/// Whether the V2 pane takes parameter `key` for this selection. The data scientist's TrainJob and
/// Python take every parameter that applies, except Nodes for TorchTune (its runtimes are
/// single-node) and processes per node where the framework's policy has none to set. The platform
/// engineer's runtime is the release's own and takes only what picks or makes it theirs: the
/// model (each TorchTune runtime is one model's), the namespace of a namespaced copy, and the image
/// of a runtime they write (plain MPI where the release ships none). Every other field shapes only the V1 job and each TrainJob that
/// uses the runtime; the widget says so above the fields (`fields_elsewhere_note`). Checked against the rendered panes for
/// every selection (tests below).
pub fn v2_pane_takes(sel: &Selection, key: ParamKey) -> bool {
    match sel.v2_support() {
        V2Support::Unsupported => return false,
        // The pane shows what `migrate` writes for the V1 job, which has no processes per node;
        // the runtime is that job's own (its name, namespace, count and image).
        V2Support::GeneratedRuntime => {
            return !matches!(
                (sel.persona, key),
                (_, ParamKey::Procs) | (Persona::PlatformEngineer, ParamKey::Gpus | ParamKey::Queue)
            );
        }
        _ => {}
    }
    match sel.persona {
        Persona::DataScientist => match key {
            ParamKey::Nodes => sel.framework != Framework::TorchTune,
            ParamKey::Procs => trainjob::takes_procs(sel.framework),
            _ => true,
        },
        // The model names the TorchTune runtime itself.
        Persona::PlatformEngineer => match key {
            ParamKey::Model => true,
            ParamKey::Namespace => sel.scope == RuntimeScope::Namespaced,
            key => runtimes::platform_takes(sel, key),
        },
    }
}

/// What the fields the V2 pane does not take (`v2_pane_takes`) shape instead, said once, above
/// the fields: under each field it was the same sentence up to seven times over (issue 22). It
/// names the fields it is about, or the few it is not about, so it stays true field by field.
/// `None` when the V2 pane takes every field.
pub fn fields_elsewhere_note(sel: &Selection) -> Option<String> {
    let (mut taken, mut elsewhere) = (Vec::new(), Vec::new());
    for key in ParamKey::ALL.into_iter().filter(|k| k.applies_to(sel.framework)) {
        if v2_pane_takes(sel, key) {
            taken.push(key)
        } else {
            elsewhere.push(key)
        }
    }
    if elsewhere.is_empty() {
        return None;
    }
    let mut note = String::new();
    if taken.len() < elsewhere.len() {
        note.push_str("Every field below");
        if !taken.is_empty() {
            note.push_str(" but ");
            push_field_labels(&mut note, &taken);
        }
        note.push_str(" shapes");
    } else {
        push_field_labels(&mut note, &elsewhere);
        note.push_str(if elsewhere.len() == 1 { " shapes" } else { " shape" });
    }
    note.push_str(if sel.persona == Persona::PlatformEngineer && sel.v2_support() != V2Support::Unsupported {
        " the V1 job and each TrainJob, not the runtime."
    } else {
        " the V1 job only."
    });
    Some(note)
}

/// "A", "A and B", "A, B and C".
fn push_field_labels(out: &mut String, keys: &[ParamKey]) {
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == keys.len() { " and " } else { ", " });
        }
        out.push_str(key.label());
    }
}

fn v2_pane(sel: &Selection) -> Pane {
    v2_pane_with::<true>(sel)
}

/// The code of the V2 pane's YAML snippets, in the pane's order: what `upgrade::notes` upgrades
/// and `explain::selection` links. The pane without its Python SDK snippet, and without the V1
/// pane `render` builds too, so the converter and explain modules, which call only this, compile
/// none of the Python and V1 snippet code.
pub fn v2_yaml(sel: &Selection) -> Vec<String> {
    v2_pane_with::<false>(sel).snippets.into_iter().filter(|s| s.language == Language::Yaml).map(|s| s.code).collect()
}

/// The V2 pane; its Python SDK snippet only `WITH_PYTHON` (a constant, so each caller's copy
/// holds only its own part).
fn v2_pane_with<const WITH_PYTHON: bool>(sel: &Selection) -> Pane {
    let heading = format!("Trainer {}", sel.release.tag);
    if sel.v2_support() == V2Support::Unsupported {
        return Pane { api: Api::V2, heading, snippets: Vec::new(), notice: Some(unsupported_notice(sel)) };
    }
    if sel.v2_support() == V2Support::GeneratedRuntime {
        return generated_pane(sel, heading);
    }
    let mut snippets = Vec::new();
    let runtime = runtimes::runtime_for(sel);
    match sel.persona {
        Persona::PlatformEngineer => {
            if let Some(rt) = runtime {
                let title = format!("{} {}", rt.kind, rt.metadata.name.clone().unwrap_or_default());
                let comments = runtime_comments(sel);
                let lines = yaml::emit_documents([(comments.as_slice(), &rt.to_tree())]);
                snippets.push(Snippet::yaml(Api::V2, title, lines, |_| false));
            }
        }
        Persona::DataScientist => {
            if let Some(job) = trainjob::trainjob_for(sel) {
                let mut comments = Vec::new();
                if sel.v2_support() == V2Support::CustomRuntime {
                    comments.push(format!(
                        "Needs the {} runtime from the platform engineer's view.",
                        crate::selection::CUSTOM_MPI_RUNTIME
                    ));
                }
                comments.extend(precreated_claim_comment(sel));
                // TorchTune runs the runtime's recipe; plain MPI runs the pi program in the image.
                if !matches!(sel.framework, Framework::TorchTune | Framework::Mpi) {
                    comments.push(format!(
                        "{} is a placeholder: bake your script into the image.",
                        workload::script_path(sel.framework)
                    ));
                }
                let lines = yaml::emit_documents([(comments.as_slice(), &job.to_tree())]);
                snippets.push(Snippet::yaml(Api::V2, "TrainJob".into(), lines, |_| false));
            }
            if let Some(code) = sdk_v2::sdk_v2(sel).filter(|_| WITH_PYTHON) {
                snippets.push(Snippet::python(Api::V2, format!("Python SDK ({})", sel.release.sdk_label()), code));
            }
        }
    }
    Pane { api: Api::V2, heading, snippets, notice: None }
}

/// TensorFlow and PaddlePaddle: what `migrate` writes for the V1 pane's job (`generated`), the
/// runtime for the platform engineer, the TrainJob for the data scientist, under a notice that
/// says where they come from. The YAML's own comments say it too, for `export` and a copy.
fn generated_pane(sel: &Selection, heading: String) -> Pane {
    let notice = Some(generated_notice(sel));
    let Some((rt, job)) = generated::objects_for(sel) else {
        return Pane { api: Api::V2, heading, snippets: Vec::new(), notice };
    };
    let (name, kind) = (sel.framework.label(), sel.framework.v1_kind().kind());
    let rt_name = rt.metadata.name.clone().unwrap_or_default();
    let written = format!("Written by `trainer-explorer migrate` for the {kind}: Trainer has no {name} runtime.");
    let snippet = match sel.persona {
        Persona::PlatformEngineer => {
            let comments = vec![
                written,
                format!(
                    "Plain ML (mlPolicy with numNodes only); each pod gets {} as {V1_OPERATOR} wrote it.",
                    contract_of(sel)
                ),
            ];
            let lines = yaml::emit_documents([(comments.as_slice(), &rt.to_tree())]);
            Snippet::yaml(Api::V2, format!("{} {rt_name}", rt.kind), lines, |_| false)
        }
        Persona::DataScientist => {
            let comments = vec![
                written,
                format!("Needs the TrainingRuntime {rt_name} from the platform engineer's view."),
                format!("{} is a placeholder: bake your script into the image.", workload::script_path(sel.framework)),
            ];
            let lines = yaml::emit_documents([(comments.as_slice(), &job.to_tree())]);
            Snippet::yaml(Api::V2, "TrainJob".into(), lines, |_| false)
        }
    };
    Pane { api: Api::V2, heading, snippets: vec![snippet], notice }
}

/// What the training code reads, which the generated runtime keeps.
fn contract_of(sel: &Selection) -> &'static str {
    if sel.framework == Framework::TensorFlow {
        "TF_CONFIG"
    } else {
        "the PADDLE_* variables"
    }
}

fn generated_notice(sel: &Selection) -> Notice {
    let (tag, name, kind) = (sel.release.tag, sel.framework.label(), sel.framework.v1_kind().kind());
    let why =
        if sel.framework == Framework::TensorFlow { "; trainer#2699 deprecated distributed TensorFlow" } else { "" };
    let mut paragraphs = vec![
        format!(
            "Trainer {tag} ships no {name} runtime and no mlPolicy for it{why}. The migrator (trainer-explorer \
             migrate, or Migrate mode here) turns the {kind} into a TrainJob plus a TrainingRuntime it writes \
             for that job: plain ML, an mlPolicy with numNodes only."
        ),
        format!(
            "That runtime gives every pod {} as {V1_OPERATOR} did: each pod's index from the downward API, \
             JobSet's hostnames, V1's ports{}",
            contract_of(sel),
            if sel.framework == Framework::Paddle {
                "; the leader's command is wrapped so its first pod names its own IP, then runs your command \
                 unchanged. A Master (the parameter servers) becomes a replicated job of its own."
            } else {
                ". A Chief, PS or Evaluator becomes a replicated job of its own."
            }
        ),
    ];
    if sel.persona == Persona::DataScientist {
        paragraphs.push(format!(
            "No Python SDK path: the SDK ({}) refuses a runtime without the {FRAMEWORK_LABEL} label, and this one \
             has none. Apply the runtime and the TrainJob with kubectl.",
            sel.release.sdk_label()
        ));
    }
    Notice { title: format!("No {name} runtime upstream: the migrator writes one"), paragraphs }
}

/// Before JobSet volume claims (v2.0–v2.1) the TorchTune runtimes mount a PVC named after
/// themselves that nothing creates: the reader must.
fn precreated_claim_comment(sel: &Selection) -> Option<String> {
    let rt = sel.builtin().filter(|rt| rt.framework == "torchtune" && !sel.release.jobset_volume_claims)?;
    Some(format!(
        "In {} every pod mounts the PVC {}: create it in the TrainJob's namespace first.",
        sel.release.tag, rt.name
    ))
}

fn runtime_comments(sel: &Selection) -> Vec<String> {
    let tag = sel.release.tag;
    // The fields the reader typed that the runtime now carries.
    let typed = runtimes::platform_typed(sel);
    let mut comments = match (sel.v2_support(), sel.scope) {
        (V2Support::CustomRuntime, _) => {
            let deepspeed = sel.release.builtin_for(Framework::DeepSpeed).map_or("", |rt| rt.name);
            let mut lines = plain_mpi_own(sel.release);
            lines.push(format!("Same pattern as {tag}'s {deepspeed}: SSH keys and hostfile come from the controller."));
            lines
        }
        // The reader's fields changed the built-in: it is theirs now, under the built-in's name.
        (_, RuntimeScope::Cluster) if !typed.is_empty() => {
            let mut line = format!("Trainer {tag}'s built-in with your ");
            push_field_labels(&mut line, &typed);
            line.push_str(": applied under its name, it replaces the shipped runtime for every namespace.");
            vec![line]
        }
        (_, RuntimeScope::Cluster) => {
            let installer = if sel.release.helm_installs_runtimes {
                "the Helm chart or manifests/overlays/runtimes"
            } else {
                "manifests/overlays/runtimes"
            };
            vec![format!("Shipped with Trainer {tag}: installed by {installer}.")]
        }
        (_, RuntimeScope::Namespaced) => {
            let mut line = format!("A team-scoped copy of the {tag} built-in");
            if !typed.is_empty() {
                line.push_str(" with your ");
                push_field_labels(&mut line, &typed);
            }
            line.push_str(": only TrainJobs in this namespace can use it.");
            vec![line]
        }
    };
    if let Some(rt) = sel.builtin() {
        if let (_, Some(removed)) = Release::life_span(rt.name) {
            comments.push(format!("Trainer {} removed {}.", removed.line, rt.name));
        }
    }
    comments.extend(precreated_claim_comment(sel));
    comments
}

/// Why plain MPI gets a runtime of its own in this release (see `Framework::v2_support_in`).
fn plain_mpi_own(release: Release) -> Vec<String> {
    if let Some(rt) = release.builtin_for(Framework::Mpi) {
        let removed = Release::life_span(rt.name).1.map(|r| format!(", and {} removed it", r.line)).unwrap_or_default();
        return vec![
            format!(
                "{}'s {} is the pi demo without the {FRAMEWORK_LABEL} label the SDK needs{removed}.",
                release.tag, rt.name
            ),
            "This runtime is one you own: it has the label and runs your image on the launcher and every node.".into(),
        ];
    }
    let last = RELEASES.iter().rev().find_map(|r| r.builtin_for(Framework::Mpi));
    vec![match last.map(|rt| (rt.name, Release::life_span(rt.name).1)) {
        Some((name, Some(removed))) => {
            format!("Trainer {} removed the plain-MPI built-in {name}: this runtime is one you own.", removed.line)
        }
        _ => format!("Trainer {} ships no plain-MPI runtime: this one is yours to own.", release.tag),
    }]
}

fn v1_pane(sel: &Selection) -> Pane {
    let heading = V1_OPERATOR.to_string();
    let kind = sel.framework.v1_kind();
    let job = v1_jobs::v1_job_for(sel);
    let mut snippets = Vec::new();
    let title = if sel.framework == Framework::TorchTune {
        "PyTorchJob that train() created (arguments abridged)".to_string()
    } else {
        kind.kind().to_string()
    };
    let job_value = job.to_tree();
    let mark = |path: &[PathSeg]| owned_by_runtime(path);
    if sel.framework == Framework::TorchTune {
        let pvc = v1_jobs::train_api_pvc(sel);
        let lines = yaml::emit_documents([(&[][..], &pvc), (&[][..], &job_value)]);
        // The PVC is storage plumbing the V2 runtime's volumeClaimPolicies own from v2.2;
        // before, the reader still creates one for the runtime.
        let mut snippet = Snippet::yaml(Api::V1, title, lines, mark);
        let pvc_lines = if sel.release.jobset_volume_claims { yaml::emit(&pvc).len() } else { 0 };
        for owned in snippet.owned_by_runtime.iter_mut().take(pvc_lines) {
            *owned = true;
        }
        snippets.push(snippet);
    } else {
        snippets.push(Snippet::yaml(Api::V1, title, yaml::emit(&job_value), mark));
    }
    if sel.persona == Persona::DataScientist {
        snippets.push(Snippet::python(Api::V1, format!("Python SDK ({V1_SDK})"), sdk_v1::sdk_v1(sel)));
    }
    Pane { api: Api::V1, heading, snippets, notice: None }
}

/// Whether a V1 job line is infrastructure a V2 runtime now owns: the replica topology, restart
/// and cleanup policies, images, ports, security contexts and probes (the MPI/SSH plumbing), and
/// the storage-initializer wiring of `train()`.
pub fn owned_by_runtime(path: &[PathSeg]) -> bool {
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|seg| match seg {
            PathSeg::Key(k) => Some(k.as_str()),
            PathSeg::Index(_) => None,
        })
        .collect();
    if keys.first() != Some(&"spec") || keys.len() < 2 {
        return false;
    }
    if keys[1] == "runPolicy" {
        return true;
    }
    if !keys[1].ends_with("ReplicaSpecs") {
        return false;
    }
    // spec.<kind>ReplicaSpecs.<Type>[.replicas|.restartPolicy]
    if keys.len() == 3 || matches!(keys.get(3), Some(&"replicas" | &"restartPolicy")) {
        return true;
    }
    const OWNED: [&str; 8] = [
        "image",
        "imagePullPolicy",
        "ports",
        "securityContext",
        "readinessProbe",
        "volumeMounts",
        "volumes",
        "initContainers",
    ];
    if keys.iter().any(|k| OWNED.contains(k)) {
        return true;
    }
    // The container's name is how V1 found it; V2 runtimes name it `node`. The pod template's
    // metadata held train()'s sidecar opt-out.
    let in_container = keys.iter().position(|k| *k == "containers");
    match in_container {
        Some(i) => keys.len() == i + 2 && keys[i + 1] == "name",
        None => keys.get(4) == Some(&"metadata"),
    }
}

/// The first release line that ships what the selection needs, when it comes after the selected
/// release (JAX and XGBoost before v2.2, Qwen before v2.1).
fn arrives_later(sel: &Selection) -> Option<Release> {
    let first = match sel.framework {
        Framework::TorchTune => {
            let model = sel.model();
            Release::first_where(|r| model.runtime(r).is_some())
        }
        f => Release::first_where(|r| f.v2_support_in(r) != V2Support::Unsupported),
    };
    first.filter(|first| sel.release.is_before(first))
}

/// The runtimes of `frameworks` that the selected release ships, named for a "move to" hint.
fn fallback_runtimes(sel: &Selection, frameworks: &[Framework]) -> (Vec<&'static str>, Vec<&'static str>) {
    frameworks.iter().filter_map(|f| sel.release.builtin_for(*f).map(|rt| (f.label(), rt.name))).unzip()
}

fn unsupported_notice(sel: &Selection) -> Notice {
    let tag = sel.release.tag;
    let name = sel.framework.label();
    let kind = sel.framework.v1_kind().kind();
    if sel.framework == Framework::TorchTune {
        let model = sel.model().label();
        let shipped: Vec<&str> =
            LlmModel::ALL.iter().filter(|m| m.runtime(&sel.release).is_some()).map(|m| m.label()).collect();
        let mut paragraphs = vec![format!(
            "Trainer {tag} ships TorchTune runtimes for {} only, so there is no TrainJob to show for {model}.",
            shipped.join(" and ")
        )];
        if let Some(first) = arrives_later(sel) {
            let runtime = sel.model().runtime(&first).map_or("", |rt| rt.name);
            paragraphs.push(format!("Its runtime, {runtime}, first shipped with Trainer {}.", first.line));
        }
        return Notice { title: format!("No {model} runtime in Trainer {tag}"), paragraphs };
    }
    let (labels, runtimes) = fallback_runtimes(sel, &[Framework::PyTorch]);
    let move_to = format!(
        "If the model can move to {}, the {} runtime{} take{} it from there.",
        labels.join(" or "),
        runtimes.join(" and "),
        if runtimes.len() > 1 { "s" } else { "" },
        if runtimes.len() > 1 { "" } else { "s" },
    );
    let policy = sel.framework.ml_policy().unwrap_or_default();
    let Some(first) = arrives_later(sel) else {
        let mut paragraphs = vec![
            format!(
                "Trainer {tag} has no {name} runtime and no mlPolicy for it, so there is no TrainJob to show. \
                 KEP-2170 lists {name} as later work; nothing has shipped."
            ),
            format!("Keep running {kind} on {V1_OPERATOR}.x while you plan the move; its CRD and SDK still work."),
        ];
        paragraphs.push(move_to);
        return Notice { title: format!("No V2 equivalent for {kind}"), paragraphs };
    };
    let runtime = first.builtin_for(sel.framework).map_or("", |rt| rt.name);
    let no_policy = if sel.release.policies.contains(&policy) {
        String::new()
    } else {
        format!(" and its CRDs have no mlPolicy.{policy}")
    };
    Notice {
        title: format!("No {name} runtime in Trainer {tag}"),
        paragraphs: vec![
            format!("Trainer {tag} ships no {name} runtime{no_policy}, so there is no TrainJob to show."),
            format!("{name} arrived in Trainer {} with the {runtime} runtime.", first.line),
            format!("Keep running {kind} on {V1_OPERATOR}.x until the cluster runs Trainer {} or later.", first.line),
            move_to,
        ],
    }
}

fn summary(sel: &Selection, v1: &Pane, v2: &Pane) -> String {
    let kind = sel.framework.v1_kind().kind();
    // The V1 pane always has its job; `first` keeps the widget's render total regardless.
    let (owned, total) = v1.snippets.first().map(|s| (s.owned_count(), s.line_count())).unwrap_or((0, 0));
    match (sel.v2_support(), sel.persona) {
        (V2Support::GeneratedRuntime, Persona::PlatformEngineer) => format!(
            "Trainer {} has no {} runtime: the migrator writes this plain-ML runtime for the {kind}, keeping {}.",
            sel.release.tag,
            sel.framework.label(),
            contract_of(sel)
        ),
        (V2Support::GeneratedRuntime, Persona::DataScientist) => {
            let v2_lines = v2.snippets.first().map(Snippet::line_count).unwrap_or(0);
            format!(
                "V2: a {v2_lines}-line TrainJob on the runtime the migrator writes for it. V1: {total} lines of {kind}."
            )
        }
        (V2Support::Unsupported, _) => {
            let tag = sel.release.tag;
            match (sel.framework, arrives_later(sel)) {
                (Framework::TorchTune, first) => format!(
                    "Trainer {tag} has no {} runtime{}.",
                    sel.model().label(),
                    first.map(|r| format!(" (first in {})", r.line)).unwrap_or_default()
                ),
                (_, Some(first)) => format!(
                    "{kind} has no Trainer {tag} equivalent (first in {}): keep it on {V1_OPERATOR} until then.",
                    first.line
                ),
                (_, None) => format!("{kind} has no Trainer {tag} equivalent: keep it on {V1_OPERATOR}."),
            }
        }
        (_, Persona::PlatformEngineer) => format!(
            "The runtime now holds what every V1 job repeated: {owned} of the {total} {kind} lines are infrastructure."
        ),
        (_, Persona::DataScientist) => {
            let v2_lines = v2.snippets.first().map(Snippet::line_count).unwrap_or(0);
            format!(
                "V2: a {v2_lines}-line TrainJob. V1: {total} lines of {kind}, {owned} of them infrastructure the {} runtime now owns.",
                sel.runtime_name().unwrap_or_default()
            )
        }
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;

    /// A value for each field that differs from its default.
    fn probe(key: ParamKey) -> &'static str {
        match key {
            ParamKey::Name => "probe-job",
            ParamKey::Namespace => "probe-ns",
            ParamKey::Nodes => "7",
            ParamKey::Gpus => "3",
            ParamKey::Procs => "5",
            ParamKey::Image => "probe/image:1",
            ParamKey::Queue => "probe-q",
            ParamKey::Model => "qwen2.5-1.5b",
            ParamKey::Dataset => "hf://probe/ds",
        }
    }

    /// For every persona, framework, scope and release, a field either changes the V2 pane or
    /// `v2_pane_takes` says it does not (and the widget says so to the reader); and every field
    /// changes the V1 pane where there is one to change.
    #[test]
    fn every_field_changes_the_v2_pane_exactly_when_v2_pane_takes_says_so() {
        let mut wrong = Vec::new();
        for persona in Persona::ALL {
            for framework in Framework::ALL {
                for scope in [RuntimeScope::Cluster, RuntimeScope::Namespaced] {
                    for release in RELEASES {
                        let mut sel = Selection::new(persona, framework);
                        sel.scope = scope;
                        sel.release = *release;
                        let before = render(&sel);
                        for key in ParamKey::ALL.into_iter().filter(|k| k.applies_to(framework)) {
                            let mut changed = sel.clone();
                            changed.params.set(key, probe(key)).unwrap();
                            let changes = render(&changed).v2 != before.v2;
                            if changes != v2_pane_takes(&sel, key) {
                                wrong.push(format!(
                                    "{} {} {:?} {}: {} changes V2 {changes}",
                                    persona.id(),
                                    framework.id(),
                                    scope,
                                    release.line,
                                    key.id()
                                ));
                            }
                        }
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// The note above the fields names what it is about. The platform engineer's PyTorch runtime
    /// takes the nodes, GPUs and image; a namespaced copy the namespace too; TorchTune's runtime
    /// is its model's, on one node, with its own image. The data scientist's TrainJob takes every field but what the
    /// framework has no place for.
    #[test]
    fn the_note_above_the_fields_names_the_fields_it_is_about() {
        let sel = |persona, framework, scope| {
            let mut sel = Selection::new(persona, framework);
            sel.scope = scope;
            fields_elsewhere_note(&sel)
        };
        use Persona::{DataScientist as Ds, PlatformEngineer as Pe};
        use RuntimeScope::{Cluster, Namespaced};
        let cases = [
            (
                sel(Pe, Framework::PyTorch, Cluster),
                "Every field below but Nodes, GPUs per node and Image shapes the V1 job and each TrainJob, not the \
                 runtime.",
            ),
            (
                sel(Pe, Framework::PyTorch, Namespaced),
                "Job name, Processes per node and Kueue LocalQueue shape the V1 job and each TrainJob, not the runtime.",
            ),
            (
                sel(Pe, Framework::TorchTune, Namespaced),
                "Every field below but Namespace, GPUs per node and Model shapes the V1 job and each TrainJob, not the \
                 runtime.",
            ),
            (sel(Ds, Framework::TorchTune, Cluster), "Nodes shapes the V1 job only."),
            // The TrainJob `migrate` writes for the TFJob takes every field but processes per node.
            (sel(Ds, Framework::TensorFlow, Cluster), "Processes per node shapes the V1 job only."),
        ];
        for (note, expected) in cases {
            assert_eq!(note.as_deref(), Some(expected));
        }
        assert_eq!(sel(Ds, Framework::PyTorch, Cluster), None, "the TrainJob takes every field");
    }

    /// The V1 pane is the Training Operator v1.9 job: the Trainer release a reader picks for the
    /// V2 side must not change a line of it (issue 22 item 10: its image did). Only the marks of
    /// what a V2 runtime owns may follow the release.
    #[test]
    fn the_v1_pane_is_the_same_whatever_trainer_release_is_selected() {
        let code = |pane: &Pane| -> Vec<(String, String)> {
            pane.snippets.iter().map(|s| (s.title.clone(), s.code.clone())).collect()
        };
        let mut wrong = Vec::new();
        for persona in Persona::ALL {
            for framework in Framework::ALL {
                let mut sel = Selection::new(persona, framework);
                let newest = render(&sel).v1;
                for release in RELEASES {
                    sel.release = *release;
                    let v1 = render(&sel).v1;
                    if v1.heading != newest.heading || code(&v1) != code(&newest) {
                        let first = code(&v1).into_iter().zip(code(&newest)).find(|(a, b)| a != b);
                        let line = first.and_then(|(a, b)| {
                            a.1.lines().zip(b.1.lines()).find(|(x, y)| x != y).map(|(x, y)| format!("{x:?} vs {y:?}"))
                        });
                        wrong.push(format!(
                            "{} {} {}: {}",
                            persona.id(),
                            framework.id(),
                            release.line,
                            line.unwrap_or_default()
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} V1 panes follow the Trainer release:\n{}", wrong.len(), wrong.join("\n"));
    }
}
