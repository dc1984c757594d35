"""Stand-in for peft (see ../README.md): LoraConfig with to_dict()."""


class LoraConfig:
    def __init__(self, **kwargs):
        self._given = dict(kwargs)

    def to_dict(self):
        return dict(self._given)
