# A minimal Sphinx + MyST site that uses the trainer-docs kit, as trainer.kubeflow.org would.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))
project = "Trainer V2 Explorer in Sphinx"
extensions = ["myst_parser", "trainer_v2_explorer"]
html_theme = "alabaster"
html_static_path = ["_static"]
exclude_patterns = ["_build"]
