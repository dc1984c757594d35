//! Torchtune: when a TrainJob's command is exactly `tune run` on a torch runtime, the torch plugin
//! completes it with the recipe, the config and the runtime's fixed paths
//! (pkg/runtime/framework/plugins/torch/torch.go:175-201, torchtune.go:108-205 at v2.3.0; the
//! release's [`TorchTuneRules`] say where older tags differ).

use super::build::{job_name, ANCESTOR_LABEL, ANCESTOR_TRAINER, NODE, TRAINER_PORT};
use super::plugins::{gpus, resources_per_node, torch_procs, Policy, Procs};
use super::{Input, Rejection};
use explorer_data::releases::{Release, TorchTuneRules};

/// constants.go:315 `TorchTuneEntrypoint`.
const ENTRYPOINT: [&str; 2] = ["tune", "run"];
/// constants.go:318 `TorchTuneImmutableConfigs` (v2.0.1 constants.go:187 has the first three).
const IMMUTABLE: [&str; 4] = ["output_dir", "tokenizer.path", "checkpointer.checkpoint_dir", "tokenizer.merges_file"];

fn immutable(rules: TorchTuneRules) -> &'static [&'static str] {
    match rules {
        TorchTuneRules::FullOnly => &IMMUTABLE[..3],
        _ => &IMMUTABLE,
    }
}

pub(super) fn is_torchtune(input: Input) -> bool {
    input.job.spec.trainer.as_ref().is_some_and(|t| t.command == ENTRYPOINT)
}

/// `getModelFromRuntimeRef` (torchtune.go:199-205): `torchtune-llama3.2-1b` → `llama3_2/1B`.
/// The name is the runtime's, which the API server's name check (`validate::crd`) admitted as a
/// DNS-1123 subdomain, ASCII only, before any plugin runs: ASCII upper case is Go's
/// `strings.ToUpper` there, and keeps the Unicode case tables out of the converter module.
pub(super) fn model_of(runtime_name: &str) -> String {
    let fields: Vec<&str> = runtime_name.split('-').collect();
    if fields.len() != 3 {
        return String::new();
    }
    format!("{}/{}", fields[1].replace('.', "_"), fields[2].to_ascii_uppercase())
}

/// torchtune.go:136-169.
fn lora(args: &[String]) -> bool {
    args.iter().any(|a| a.contains("model.lora_attn_modules"))
}

fn bool_arg(args: &[String], item: &str) -> bool {
    args.iter().any(|a| {
        a.split_once('=').is_some_and(|(name, value)| name.contains(item) && value.trim().eq_ignore_ascii_case("true"))
    })
}

/// `isUseQLoraFinetune`: v2.3.0 reads `key=True` (torchtune.go:146-169); v2.1.0-v2.2.1 only
/// look for the names, any DoRA mention turning QLoRA off (torchtune.go:115-128 @v2.1.0).
fn qlora(rules: TorchTuneRules, args: &[String]) -> bool {
    match rules {
        TorchTuneRules::LoraChecked => !bool_arg(args, "model.use_dora") && bool_arg(args, "model.quantize_base"),
        TorchTuneRules::Lora => {
            !args.iter().any(|a| a.contains("model.use_dora")) && args.iter().any(|a| a.contains("model.quantize_base"))
        }
        TorchTuneRules::FullOnly => false,
    }
}

/// `getRecipeAndConfig` (torchtune.go:108-133; v2.1.0 :78-103; v2.0.1 torch.go:249-260, full
/// fine-tuning only).
pub(super) fn recipe_and_config(
    rules: TorchTuneRules,
    nodes: u32,
    procs: Procs,
    gpus: u64,
    args: &[String],
    runtime_name: &str,
) -> (String, String) {
    let use_lora = |args: &[String]| rules != TorchTuneRules::FullOnly && lora(args);
    let use_qlora = |args: &[String]| qlora(rules, args);
    let single = match rules {
        TorchTuneRules::FullOnly => nodes == 1 && procs == Procs::Count(1),
        _ => nodes == 1 && (procs == Procs::Count(1) || gpus == 1),
    };
    let (recipe, suffix) = if single {
        if use_qlora(args) {
            ("lora_finetune_single_device", "_qlora_single_device")
        } else if use_lora(args) {
            ("lora_finetune_single_device", "_lora_single_device")
        } else {
            ("full_finetune_single_device", "_full_single_device")
        }
    } else if nodes == 1 && use_qlora(args) {
        ("lora_finetune_distributed", "_qlora")
    } else if nodes == 1 && use_lora(args) {
        ("lora_finetune_distributed", "_lora")
    } else if nodes > 1 {
        ("full_finetune_distributed", "_full_multinode")
    } else {
        ("full_finetune_distributed", "_full")
    };
    (recipe.into(), format!("{}{suffix}", model_of(runtime_name)))
}

/// The trainer's final command, or `None` when torchtune does not apply.
pub(super) fn command(input: Input, release: Release, policy: &Policy, nodes: u32) -> Option<Vec<String>> {
    if !policy.torch || !is_torchtune(input) {
        return None;
    }
    let rules = release.controller.torchtune;
    let args = &input.job.spec.trainer.as_ref()?.args;
    let procs = torch_procs(input, release);
    let gpus = gpus(resources_per_node(input).as_ref());
    let mut command: Vec<String> = ENTRYPOINT.iter().map(|s| s.to_string()).collect();
    // torch.go:184-191 a rendezvous endpoint only for several nodes or several devices; v2.0.1
    // (torch.go:200-208) adds it unless the count is exactly 1.
    let many = match rules {
        TorchTuneRules::FullOnly => procs != Procs::Count(1),
        _ => matches!(procs, Procs::Count(n) if n > 1) || (matches!(procs, Procs::Auto | Procs::Gpu) && gpus > 1),
    };
    if nodes > 1 || many {
        let name = job_name(input);
        command.push(format!("--rdzv_endpoint={name}-{NODE}-0-0.{name}:{TRAINER_PORT}"));
    }
    let (recipe, config) = recipe_and_config(rules, nodes, procs, gpus, args, &input.job.spec.runtime_ref.name);
    command.extend([recipe, "--config".into(), config]);
    // torchtune.go:172-197 the runtime's own output, tokenizer and checkpoint paths.
    for rjob in &input.runtime.spec.template.spec.replicated_jobs {
        let trainer = rjob.template.metadata.as_ref().and_then(|m| m.labels.get(ANCESTOR_LABEL))
            == Some(&ANCESTOR_TRAINER.to_string());
        if !trainer {
            continue;
        }
        for c in rjob.template.spec.template.spec.containers.iter().filter(|c| c.name == NODE) {
            let fixed = c.command.iter().filter(|a| immutable(rules).contains(&a.split('=').next().unwrap_or("")));
            command.extend(fixed.cloned());
        }
    }
    Some(command)
}

/// constants.go:283-292,312 `TorchTuneSupportedPretrainedModels` (v2.1.0 constants.go:223).
const SUPPORTED_MODELS: [&str; 4] = ["llama3_2/1B", "llama3_2/3B", "llama3_3/70B", "qwen2_5/1.5B"];
/// v2.0.1 constants.go:161-181: a 7B Llama 3.2 (which Meta never published), no 3B, no Qwen.
const V2_0_MODELS: [&str; 3] = ["llama3_2/1B", "llama3_2/7B", "llama3_3/70B"];
const LLAMA_70B: &str = "llama3_3/70B";

/// `validateTorchTune` (torchtune.go:35-104; v2.1.0 :35-74; v2.0.1 torch.go:88-103), first
/// error first.
pub(super) fn validate(input: Input, release: Release) -> Option<Rejection> {
    let rules = release.controller.torchtune;
    let trainer = input.job.spec.trainer.as_ref()?;
    let reject = |field: &str, reason: String| Some(Rejection::message(field, reason));
    let runtime_name = &input.job.spec.runtime_ref.name;
    let model = model_of(runtime_name);
    let supported: &[&str] = if rules == TorchTuneRules::FullOnly { &V2_0_MODELS } else { &SUPPORTED_MODELS };
    // :42-44
    if !supported.contains(&model.as_str()) {
        return reject(
            "spec.runtimeRef.name",
            format!("must have a supported pretrained model, invalid model configured: {model}"),
        );
    }
    // :47-50
    let nodes = trainer.num_nodes.unwrap_or(1);
    if nodes > 1 && model != LLAMA_70B {
        return reject("spec.trainer.numNodes", format!("must be 1 for {model} model"));
    }
    if rules == TorchTuneRules::FullOnly {
        return None;
    }
    // :53-75 QLoRA limits, judged on the config the plugin would pick.
    let procs = trainer.num_proc_per_node.map(Procs::Count);
    let procs = procs.or_else(|| input.legacy.num_proc_per_node.as_deref().and_then(Procs::parse));
    let procs = procs.unwrap_or(Procs::Auto);
    let gpus = gpus(resources_per_node(input).as_ref());
    let (_, config) = recipe_and_config(rules, nodes, procs, gpus, &trainer.args, runtime_name);
    if config.contains("_qlora") {
        if model == "qwen2_5/1.5B" {
            return reject("spec.runtimeRef.name", format!("QLoRA is not supported for {model} model"));
        }
        if !config.contains("_qlora_single_device") && (model == "llama3_2/1B" || model == "llama3_2/3B") {
            return reject(
                "spec.trainer.numProcPerNode",
                format!("must be auto or 1 for {model} model when using QLoRA"),
            );
        }
    }
    if rules != TorchTuneRules::LoraChecked {
        return None;
    }
    // :79-85 (new in v2.3.0)
    if nodes > 1 && (lora(&trainer.args) || qlora(rules, &trainer.args)) {
        return reject(
            "spec.trainer.numNodes",
            "LoRA fine-tuning is not supported for multi-node training in TorchTune".into(),
        );
    }
    // :91-101 (new in v2.3.0)
    for (i, arg) in trainer.args.iter().enumerate() {
        let key = arg.split('=').next().unwrap_or("");
        if IMMUTABLE.contains(&key) {
            return reject(
                &format!("spec.trainer.args[{i}]"),
                format!("must not set immutable config {key:?} in trainer args; it is managed by the runtime"),
            );
        }
    }
    None
}
