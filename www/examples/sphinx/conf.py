# A minimal Sphinx + MyST site that uses the embed/sphinx recipe, as trainer.kubeflow.org would.
project = "Trainer V2 Explorer in Sphinx"
extensions = ["myst_parser"]
html_theme = "alabaster"
html_static_path = ["_static"]
exclude_patterns = ["_build"]
