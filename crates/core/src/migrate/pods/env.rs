//! The variables each side's controller injects, and how V1's relate to V2's. Sources: the V1
//! side in `crate::explain::v1` (training-operator v1.9.0, mpi-operator v0.6.0), the V2 side in
//! `crate::explain` (kubeflow/trainer plugins). What torchrun does with `PET_*` is
//! pytorch/pytorch v2.x torch/distributed/run.py (every `--flag` reads `PET_FLAG`) and
//! torch/distributed/elastic/agent/server/api.py (`_assign_worker_ranks` and the worker env:
//! `RANK`, `WORLD_SIZE`, `MASTER_ADDR`, `MASTER_PORT` of each process it starts).

use explorer_data::catalog::V1Kind;

/// A variable V1 set, what V2 sets in its place, and how their values relate.
pub(super) struct Rename {
    pub v1: &'static str,
    /// The V2 variables that carry the same fact (empty: V2 has none).
    pub v2: &'static [&'static str],
    pub relation: &'static str,
}

const PYTORCH: &[Rename] = &[
    Rename {
        v1: "MASTER_ADDR",
        v2: &["PET_MASTER_ADDR"],
        relation: "V1: the Master's Service name; V2: node 0's hostname in the JobSet's Service. PET_MASTER_ADDR is torchrun's --master-addr; torchrun sets MASTER_ADDR for its processes",
    },
    Rename {
        v1: "MASTER_PORT",
        v2: &["PET_MASTER_PORT"],
        relation: "V1: the Master's pytorchjob-port (default 23456); V2: Trainer's fixed 29500 (torchrun's --master-port). torchrun sets MASTER_PORT for its processes",
    },
    Rename {
        v1: "WORLD_SIZE",
        v2: &["PET_NNODES", "PET_NPROC_PER_NODE"],
        relation: "V1: pods × nprocPerNode (a non-number such as auto counts 1); V2: torchrun sets WORLD_SIZE = PET_NNODES × PET_NPROC_PER_NODE in each process",
    },
    Rename {
        v1: "RANK",
        v2: &["PET_NODE_RANK"],
        relation: "V1: the pod's rank (Master 0, Worker i is i+1); V2: PET_NODE_RANK is the pod's completion index, and torchrun sets each process's RANK = node rank × procs per node + local rank",
    },
    Rename {
        v1: "PET_NODE_RANK",
        v2: &["PET_NODE_RANK"],
        relation: "The same numbering: V1 writes each pod's number (Master 0, Worker i is i+1), V2 reads the pod's completion index (node 0 is V1's Master)",
    },
    Rename {
        v1: "PET_MASTER_ADDR",
        v2: &["PET_MASTER_ADDR"],
        relation: "V1: the Master's Service name; V2: node 0's hostname in the JobSet's Service",
    },
    Rename {
        v1: "PET_MASTER_PORT",
        v2: &["PET_MASTER_PORT"],
        relation: "V1: the Master's pytorchjob-port (default 23456); V2: Trainer's fixed 29500",
    },
    Rename {
        v1: "PET_NPROC_PER_NODE",
        v2: &["PET_NPROC_PER_NODE"],
        relation: "V1 passed spec.nprocPerNode as written (default auto: torchrun counts the GPUs, else the CPUs it sees); V2 resolves it from the node's resources (GPUs, else CPUs) unless numProcPerNode is a number",
    },
    Rename {
        v1: "PET_NNODES",
        v2: &["PET_NNODES"],
        relation: "V1: every pod, or the elastic min:max range; V2: numNodes, a fixed count (V2 has no elastic range)",
    },
    Rename {
        v1: "PET_RDZV_ENDPOINT",
        v2: &[],
        relation: "Elastic rendezvous: V2 has no elasticPolicy, torchrun meets at PET_MASTER_ADDR:PET_MASTER_PORT",
    },
    Rename { v1: "PET_RDZV_BACKEND", v2: &[], relation: "Elastic rendezvous: V2 has no elasticPolicy (torchrun's static c10d store)" },
    Rename { v1: "PET_RDZV_ID", v2: &[], relation: "Elastic rendezvous: V2 has no elasticPolicy" },
    Rename { v1: "PET_RDZV_CONF", v2: &[], relation: "Elastic rendezvous: V2 has no elasticPolicy" },
    Rename { v1: "PET_STANDALONE", v2: &[], relation: "Elastic rendezvous: V2 has no elasticPolicy" },
    Rename {
        v1: "PET_MAX_RESTARTS",
        v2: &[],
        relation: "In-pod restarts by torchrun: V2 sets none (torchrun's default 0); a failed pod follows the JobSet's failurePolicy",
    },
];

const JAX: &[Rename] = &[
    Rename {
        v1: "COORDINATOR_ADDRESS",
        v2: &["JAX_COORDINATOR_ADDRESS"],
        relation: "V1: Worker 0's Service name, the port apart in COORDINATOR_PORT; V2: node 0's hostname with :29500",
    },
    Rename {
        v1: "COORDINATOR_PORT",
        v2: &["JAX_COORDINATOR_ADDRESS"],
        relation: "V1: the Worker's jaxjob-port (default 6666); V2: 29500, inside JAX_COORDINATOR_ADDRESS",
    },
    Rename {
        v1: "NUM_PROCESSES",
        v2: &["JAX_NUM_PROCESSES"],
        relation: "The same count (one process per pod), under V2's name",
    },
    Rename {
        v1: "PROCESS_ID",
        v2: &["JAX_PROCESS_ID"],
        relation: "The same number (the pod's index), under V2's name; V2 reads it from the pod's completion index",
    },
];

const XGBOOST: &[Rename] = &[
    Rename {
        v1: "MASTER_ADDR",
        v2: &["DMLC_TRACKER_URI"],
        relation: "V1: the Master's Service name; V2: node 0's hostname, where the Rabit tracker runs",
    },
    Rename {
        v1: "MASTER_PORT",
        v2: &["DMLC_TRACKER_PORT"],
        relation: "V1: the Master's xgboostjob-port (default 9999); V2: the tracker's 29500",
    },
    Rename {
        v1: "WORLD_SIZE",
        v2: &["DMLC_NUM_WORKER"],
        relation: "V1: every pod; V2: nodes × GPUs per node (one worker per GPU), else nodes",
    },
    Rename {
        v1: "RANK",
        v2: &["DMLC_TASK_ID"],
        relation: "V1: Master 0, Worker i is i + Masters; V2: the pod's completion index",
    },
    // xgboost.go:97 at v1.9.0: "used if it is a LightGBM job"; Trainer's xgboost plugin sets
    // the DMLC_* variables only.
    Rename {
        v1: "WORKER_ADDRS",
        v2: &[],
        relation: "V1: the Worker pods' names, which V1 sets for LightGBM code; V2: Trainer's xgboost plugin sets no such list",
    },
    Rename {
        v1: "WORKER_PORT",
        v2: &[],
        relation: "V1: the Worker's xgboostjob-port, which V1 sets for LightGBM code; V2: Trainer's xgboost plugin sets no such port",
    },
];

const MPI: &[Rename] = &[
    Rename {
        v1: "K_MPI_JOB_ROLE",
        v2: &[],
        relation: "V2 sets no role variable; the pod's jobset.sigs.k8s.io/replicatedjob-name label names its job (launcher or node)",
    },
    Rename {
        v1: "NVIDIA_VISIBLE_DEVICES",
        v2: &[],
        relation: "V1 hid the node's GPUs from a launcher that runs no ranks; V2 does not (the launcher asks for none)",
    },
    Rename {
        v1: "NVIDIA_DRIVER_CAPABILITIES",
        v2: &[],
        relation: "V1 hid the node's GPUs from a launcher that runs no ranks; V2 does not (the launcher asks for none)",
    },
    Rename {
        v1: "OMPI_MCA_plm_rsh_agent",
        v2: &["OMPI_MCA_plm_rsh_args"],
        relation: "V1 (kubeflow.org/v1) started ranks with kubectl exec through kubexec.sh; V2 uses SSH with the generated key",
    },
    Rename {
        v1: "I_MPI_HYDRA_BOOTSTRAP",
        v2: &[],
        relation: "Intel MPI's bootstrap through kubexec.sh; V2 runs OpenMPI over SSH only",
    },
    Rename {
        v1: "I_MPI_HYDRA_BOOTSTRAP_EXEC",
        v2: &[],
        relation: "Intel MPI's bootstrap through kubexec.sh; V2 runs OpenMPI over SSH only",
    },
    Rename {
        v1: "OMPI_MCA_orte_set_default_slots",
        v2: &["OMPI_MCA_orte_set_default_slots"],
        relation: "V1: slotsPerWorker; V2: numProcPerNode (one per GPU when the runtime leaves it at 1)",
    },
    Rename {
        v1: "OMPI_MCA_orte_default_hostfile",
        v2: &["OMPI_MCA_orte_default_hostfile"],
        relation: "Both read the hostfile from /etc/mpi; the file lists V2's node hostnames",
    },
];

/// `PYTHONUNBUFFERED` is set by every V1 kind but MPIJob, and by no V2 plugin.
pub(super) const UNBUFFERED: Rename = Rename {
    v1: "PYTHONUNBUFFERED",
    v2: &[],
    relation: "V2 does not set it: Python's output reaches the logs in blocks unless the image or command sets it",
};

pub(super) fn table(kind: V1Kind) -> &'static [Rename] {
    match kind {
        V1Kind::PyTorchJob => PYTORCH,
        V1Kind::JaxJob => JAX,
        V1Kind::XgBoostJob => XGBOOST,
        V1Kind::MpiJob => MPI,
        V1Kind::TfJob | V1Kind::PaddleJob => &[],
    }
}

/// What V1 set under `name`, and how V2 relates.
pub(super) fn rename(kind: V1Kind, name: &str) -> Option<&'static Rename> {
    table(kind).iter().find(|r| r.v1 == name).or((name == UNBUFFERED.v1).then_some(&UNBUFFERED))
}

/// The V2 plugin that sets `name`, for a variable V1 did not have.
pub(super) fn v2_plugin(name: &str) -> Option<&'static str> {
    match name {
        n if n.starts_with("PET_") => Some("torch"),
        n if n.starts_with("JAX_") => Some("jax"),
        n if n.starts_with("DMLC_") => Some("xgboost"),
        n if n.starts_with("OMPI_MCA_") => Some("mpi"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{table, UNBUFFERED};
    use explorer_data::catalog::V1Kind;

    /// A relation is written after a sentence (`same variable, new value: set by …. {relation}`)
    /// and alone in the pods' table's "How they relate" column: it starts as a sentence does.
    #[test]
    fn every_relation_starts_as_a_sentence() {
        let kinds = [V1Kind::PyTorchJob, V1Kind::JaxJob, V1Kind::XgBoostJob, V1Kind::MpiJob];
        let renames = kinds.into_iter().flat_map(table).chain([&UNBUFFERED]);
        let lower: Vec<_> =
            renames.filter(|r| r.relation.starts_with(|c: char| c.is_lowercase())).map(|r| r.v1).collect();
        assert!(lower.is_empty(), "relations starting in lowercase: {lower:?}");
    }
}
