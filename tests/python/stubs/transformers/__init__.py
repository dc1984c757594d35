"""Stand-in for transformers (see ../README.md): the model classes train() names and
TrainingArguments with to_dict()."""


class _AutoModel:
    """The Auto* classes are only passed around by name (`transformer_type.__name__`)."""


class AutoModelForSequenceClassification(_AutoModel):
    pass


class AutoModelForTokenClassification(_AutoModel):
    pass


class AutoModelForQuestionAnswering(_AutoModel):
    pass


class AutoModelForCausalLM(_AutoModel):
    pass


class AutoModelForMaskedLM(_AutoModel):
    pass


class AutoModelForImageClassification(_AutoModel):
    pass


class TrainingArguments:
    def __init__(self, output_dir=None, **kwargs):
        self._given = dict(kwargs)
        if output_dir is not None:
            self._given = {"output_dir": output_dir, **self._given}

    def to_dict(self):
        return dict(self._given)
