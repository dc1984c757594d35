//! The snippets' text, written once as templates that the core fills for a selection
//! (`explorer_core::template`): the text as a reader copies it, with lines kept only when a flag
//! the selection decides is set (`{{?flag}}` before the line) or is not (`{{!flag}}`). The files are under crates/data/src/templates/, one per
//! snippet part: to change what a snippet says, edit its file, not the code that fills it.

/// The body of the training function the SDK snippets pass (`CustomTrainer(func=train)` in V2,
/// `create_job(train_func=train)` in V1), per framework, unindented. Flags: `gpu` (the job asks
/// for GPUs), `v1` and `v2` (the pane it is written for). tests/python/run_training.py runs each V2
/// body (and the V1 PyTorch one) on two local processes with the env the controller gives each
/// pod; crates/core/tests/it/v1_tf_snippet.rs and crates/core/tests/it/v1_paddle_snippet.rs run
/// the V1 TensorFlow and PaddlePaddle ones once per pod.
pub mod train {
    /// The V2 torch runtime always starts the command with torchrun
    /// (v2.3.0:pkg/runtime/framework/plugins/torch/torch.go sets PET_* for it).
    /// kubeflow-training 1.9.4 starts torchrun on several nodes or processes, else one process
    /// with python, which reads the pod env the operator sets: RANK and WORLD_SIZE
    /// (pkg/controller.v1/pytorch/envvar.go:86-93 @v1.9.0), MASTER_ADDR and MASTER_PORT
    /// (master.go:15-16).
    pub const PYTORCH: &str = include_str!("templates/train/pytorch.py.in");
    /// DeepSpeed's.
    pub const DEEPSPEED: &str = include_str!("templates/train/deepspeed.py.in");
    /// MLX's.
    pub const MLX: &str = include_str!("templates/train/mlx.py.in");
    /// jax reads only JAX_COORDINATOR_ADDRESS from the env (jax/_src/distributed.py); the process
    /// count and id it would find by cluster auto-detection, which on Kubernetes needs the
    /// `kubernetes` package and the right to read Pods. The runtime sets both
    /// (v2.3.0:pkg/runtime/framework/plugins/jax/jax.go:76-97, the same since v2.2).
    pub const JAX: &str = include_str!("templates/train/jax.py.in");
    /// The runtime only points every worker at rank 0's pod (DMLC_TRACKER_URI and _PORT,
    /// v2.3.0:pkg/runtime/framework/plugins/xgboost/xgboost.go:115-139); nothing in the image
    /// starts the tracker, so rank 0's code does.
    pub const XGBOOST: &str = include_str!("templates/train/xgboost.py.in");
    /// Training Operator v1.9 gives a TFJob's pods TF_CONFIG (this pod's task type and index),
    /// not RANK, and none at all when the job has one pod (v1.9.0:pkg/controller.v1/tensorflow/
    /// tensorflow.go:112-188, tfjob_controller.go:561-564); plain_ml keeps the same for V2.
    pub const TENSORFLOW: &str = include_str!("templates/train/tensorflow.py.in");
    /// Training Operator v1.9 gives a PaddleJob's pods no rank: PADDLE_JOB_ID, PADDLE_NNODES and
    /// PADDLE_MASTER, where the pods meet (the first pod's own address there, the first pod's
    /// Service elsewhere; v1.9.0:pkg/controller.v1/paddlepaddle/envvar.go:65-124).
    /// paddle.distributed.launch meets the others there and gives each process its rank
    /// (PADDLE_TRAINER_ID); plain_ml keeps the same variables for V2.
    pub const PADDLE: &str = include_str!("templates/train/paddle.py.in");
    /// Plain MPI and TorchTune: a placeholder that prints the rank.
    pub const RANK: &str = include_str!("templates/train/rank.py.in");
}
