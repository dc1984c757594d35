//! The environment V1's operator gave every pod, and what V2 gives instead.
//!
//! Training Operator v1.9 set `MASTER_ADDR`, `MASTER_PORT`, `WORLD_SIZE` and `RANK` (PyTorch with
//! a Master, XGBoost) and `COORDINATOR_ADDRESS`, `COORDINATOR_PORT`, `NUM_PROCESSES` and
//! `PROCESS_ID` (JAX); Trainer's plugins set `PET_*`, `DMLC_*` and `JAX_*` instead. Code that
//! reads the V1 names (`os.environ["RANK"]`, `$(WORLD_SIZE)` in args) would find nothing.
//!
//! Chosen: every V1 variable whose value V2 determines exactly goes into `spec.trainer.env` with
//! that value (a number, node 0's host name, or the node's Job completion index, which is the
//! plugins' own rank source), so the code reads what it read in V1, in V2's terms; `$(VAR)`
//! references in the main container's command, args and env take the V2 variable of the same
//! meaning where there is one. Everything is said on the report's `kind` line.

use super::*;
use crate::model::pod::EnvVar;

use crate::plain_ml::COMPLETION_INDEX;
/// The port every policy plugin gives the trainer container (constants.go:71-72 @v2.3.0).
const TRAINER_PORT: &str = "29500";

/// One variable V1 set: its V1 value in V2 terms, and V2's own variable of the same meaning.
struct V1Var {
    name: &'static str,
    value: EnvValue,
    /// V2's variable with exactly this value, where there is one: `$(name)` becomes `$(v2)`.
    v2_same: Option<&'static str>,
    /// How V2 says it, for the report.
    relation: String,
}

enum EnvValue {
    Text(String),
    CompletionIndex,
    /// Too large to write: only the report mentions it.
    Omitted,
}

/// The longest host list written into one variable.
const MAX_LIST_BYTES: u64 = 256 * 1024;

impl Conversion<'_> {
    /// Adds the V1 variables to `trainer.env` and rewrites `$(VAR)` references, for the
    /// single-template kinds. `nodes` is the TrainJob's numNodes; `main_path` the carried
    /// container's V1 path.
    pub(super) fn carry_v1_env(&mut self, trainer: &mut Trainer, nodes: u32, main_path: &str) {
        let vars = self.v1_vars(nodes);
        if vars.is_empty() {
            return;
        }
        self.rewrite_references(trainer, &vars, main_path);
        // "NAME (relation), …", written in place: a `format!` for each and one for the note took
        // 10.6M instructions on make bench's 1 MB manifest (about 1,100 a call).
        let mut added = String::new();
        for var in &vars {
            let in_tree = self.trainer_env_in_tree.as_ref();
            if trainer.env.iter().any(|e| e.name == var.name)
                || in_tree.is_some_and(|t| t.vars().any(|(n, _)| n == var.name))
            {
                continue; // the job sets it itself
            }
            match &var.value {
                EnvValue::Text(v) => trainer.env.push(EnvVar::new(var.name, v)),
                EnvValue::CompletionIndex => trainer.env.push(EnvVar {
                    name: var.name.into(),
                    value: None,
                    value_from: Some(crate::tree!({"fieldRef": {"fieldPath": COMPLETION_INDEX}})),
                }),
                EnvValue::Omitted => {}
            }
            if !added.is_empty() {
                added.push_str(", ");
            }
            added.extend([var.name, " (", &var.relation, ")"]);
        }
        if added.is_empty() {
            return;
        }
        self.kind_note.extend([
            "; Training Operator v1.9 gave every pod variables ",
            self.release.tag,
            " does not set, so spec.trainer.env sets them to the values V2 determines: ",
            &added,
        ]);
    }

    /// What V1 set for this job (training-operator v1.9.0:pkg/controller.v1/pytorch/envvar.go:43-127,
    /// xgboost/xgboost.go:42-110, jax/envvar.go:37-77), in V2's terms.
    fn v1_vars(&self, nodes: u32) -> Vec<V1Var> {
        let name = self.name.as_str();
        // JobSet names node 0's pod <jobset>-node-0-0 under the subdomain <jobset> (the TrainJob's
        // name), as the plugins write it (jax.go:93-97, xgboost.go:114-116 @v2.3.0).
        let host = |i: u32| format!("{name}-node-0-{i}.{name}");
        let text = |s: String| EnvValue::Text(s);
        let unbuffered = V1Var {
            name: "PYTHONUNBUFFERED",
            value: text("1".into()),
            v2_same: None,
            relation: "V2 sets none: Python's output unbuffered, as in V1".into(),
        };
        match self.source.kind() {
            // envvar.go:66: only with a Master replica.
            V1Kind::PyTorchJob if self.replica("Master").is_some() => {
                let nproc = self.spec().get("nprocPerNode").and_then(Value::as_str).and_then(|s| s.parse::<u32>().ok());
                let world = u64::from(nodes) * u64::from(nproc.unwrap_or(1));
                let world_relation = match nproc {
                    Some(n) if n > 1 => {
                        format!("{world}: PET_NNODES x PET_NPROC_PER_NODE, nodes times nprocPerNode {n}")
                    }
                    _ => format!("{world}: PET_NNODES, one per node as V1 counted without an integer nprocPerNode"),
                };
                let mut vars = master_vars(host(0), ["PET_MASTER_ADDR", "PET_MASTER_PORT", "PET_NODE_RANK"]);
                vars.push(V1Var {
                    name: "WORLD_SIZE",
                    value: text(world.to_string()),
                    v2_same: nproc.filter(|n| *n > 1).is_none().then_some("PET_NNODES"),
                    relation: world_relation,
                });
                vars.push(unbuffered);
                vars
            }
            V1Kind::XgBoostJob => {
                let mut vars = master_vars(host(0), ["DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID"]);
                vars.push(V1Var {
                    name: "WORLD_SIZE",
                    value: text(nodes.to_string()),
                    v2_same: None,
                    relation: format!(
                        "{nodes}, the pods; DMLC_NUM_WORKER counts one worker per GPU where nodes have GPUs"
                    ),
                });
                vars.push(unbuffered);
                // A list of every host grows with the node count: past what an object holds
                // (etcd's 1.5 MiB), it is left out and the report says so.
                let list_bytes = u64::from(nodes) * (2 * name.len() as u64 + 16);
                if nodes > 1 && list_bytes > MAX_LIST_BYTES {
                    vars.push(V1Var {
                        name: "WORKER_ADDRS",
                        value: EnvValue::Omitted,
                        v2_same: None,
                        relation: format!(
                            "not set: the {} hosts of nodes 1 and up would not fit in one object",
                            nodes - 1
                        ),
                    });
                } else if nodes > 1 {
                    let workers: Vec<String> = (1..nodes).map(host).collect();
                    vars.push(V1Var {
                        name: "WORKER_PORT",
                        value: text(TRAINER_PORT.into()),
                        v2_same: None,
                        relation: format!("{TRAINER_PORT}, the port V2 declares"),
                    });
                    vars.push(V1Var {
                        name: "WORKER_ADDRS",
                        value: text(workers.join(",")),
                        v2_same: None,
                        relation: "the hosts of nodes 1 and up, which run the V1 Workers".into(),
                    });
                }
                vars
            }
            V1Kind::JaxJob => vec![
                V1Var {
                    name: "COORDINATOR_ADDRESS",
                    value: text(host(0)),
                    v2_same: None,
                    relation: format!("node 0's host; JAX_COORDINATOR_ADDRESS is host:{TRAINER_PORT}"),
                },
                V1Var {
                    name: "COORDINATOR_PORT",
                    value: text(TRAINER_PORT.into()),
                    v2_same: None,
                    relation: format!("{TRAINER_PORT}, the port in JAX_COORDINATOR_ADDRESS"),
                },
                V1Var {
                    name: "NUM_PROCESSES",
                    value: text(nodes.to_string()),
                    v2_same: Some("JAX_NUM_PROCESSES"),
                    relation: format!("{nodes}, JAX_NUM_PROCESSES"),
                },
                V1Var {
                    name: "PROCESS_ID",
                    value: EnvValue::CompletionIndex,
                    v2_same: Some("JAX_PROCESS_ID"),
                    relation: "the node's index, JAX_PROCESS_ID".into(),
                },
                unbuffered,
            ],
            _ => Vec::new(),
        }
    }

    /// `$(V1)` in the carried container's command, args and env values becomes `$(V2)` where V2
    /// has a variable of exactly the same value; each rewritten item gets its own report entry.
    fn rewrite_references(&mut self, trainer: &mut Trainer, vars: &[V1Var], main_path: &str) {
        let rewrite = |text: &str| -> Option<(String, Vec<String>)> {
            // Every reference is written `$(NAME)`: a text without `$(` has none (most have none,
            // and the search below formats each variable's reference first).
            if !text.contains("$(") {
                return None;
            }
            let mut out = text.to_string();
            let mut done = Vec::new();
            for var in vars {
                let (Some(v2), from) = (var.v2_same, format!("$({})", var.name)) else { continue };
                if out.contains(&from) {
                    out = out.replace(&from, &format!("$({v2})"));
                    done.push(format!("$({}) is now $({v2})", var.name));
                }
            }
            (!done.is_empty()).then_some((out, done))
        };
        let mut entries = Vec::new();
        for (field, items) in [("command", &mut trainer.command), ("args", &mut trainer.args)] {
            for (i, item) in items.iter_mut().enumerate() {
                if let Some((new, done)) = rewrite(item) {
                    *item = new;
                    entries.push((format!("{main_path}.{field}[{i}]"), format!("spec.trainer.{field}[{i}]"), done));
                }
            }
        }
        // The args the tree holds (`tree_args`): a rewritten one is kept by its index, for the
        // caller to write in the tree's item's place.
        if let Some(tree) = &mut self.trainer_args_in_tree {
            for (i, item) in tree.list.iter().enumerate() {
                if let Some((new, done)) = item.as_str().and_then(rewrite) {
                    tree.rewritten.push((i, new));
                    entries.push((format!("{main_path}.args[{i}]"), format!("spec.trainer.args[{i}]"), done));
                }
            }
        }
        // The variables the tree holds (`moved_env::EnvInTree`), where the model was read without
        // them: a rewritten value is kept by its index, as the args are.
        if let Some(tree) = &mut self.trainer_env_in_tree {
            for (i, (_, value)) in tree.vars().enumerate() {
                if let Some((new, done)) = value.and_then(rewrite) {
                    tree.rewritten.push((i, new));
                    entries.push((format!("{main_path}.env[{i}].value"), format!("spec.trainer.env[{i}].value"), done));
                }
            }
        }
        for (i, var) in trainer.env.iter_mut().enumerate() {
            if let Some((new, done)) = var.value.as_deref().and_then(rewrite) {
                var.value = Some(new);
                entries.push((format!("{main_path}.env[{i}].value"), format!("spec.trainer.env[{i}].value"), done));
            }
        }
        for (v1, v2, done) in entries {
            self.report.mapped_derived(
                v1,
                v2,
                format!("{}: {} sets the V2 variable of the same value", done.join(", "), self.release.tag),
            );
        }
    }
}

/// `MASTER_ADDR`, `MASTER_PORT` and `RANK` as PyTorch and XGBoost V1 set them, with the V2
/// variables of the same value (address, port, rank): node 0's host, the plugins' port, and the
/// node's Job completion index, where the Master is node 0.
fn master_vars(host0: String, [addr, port, rank]: [&'static str; 3]) -> Vec<V1Var> {
    vec![
        V1Var {
            name: "MASTER_ADDR",
            value: EnvValue::Text(host0),
            v2_same: Some(addr),
            relation: ["node 0's host, ", addr].concat(),
        },
        V1Var {
            name: "MASTER_PORT",
            value: EnvValue::Text(TRAINER_PORT.into()),
            v2_same: Some(port),
            relation: [TRAINER_PORT, ", ", port].concat(),
        },
        V1Var {
            name: "RANK",
            value: EnvValue::CompletionIndex,
            v2_same: Some(rank),
            relation: ["the node's index, ", rank, "; the Master is node 0"].concat(),
        },
    ]
}
