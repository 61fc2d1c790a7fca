"""A minimal stand-in for pydantic, used by run_openwebui.py only when the interpreter has none.

Enough for Open WebUI Valves: `class Valves(BaseModel): NAME: type = Field(default=..., description=...)`,
keyword construction, attribute access, `model_dump()`. Values are converted to the annotated
simple type (str, int, float, bool) when they are not already of it; nothing else is validated.
"""

_MISSING = object()


class FieldInfo:
    def __init__(self, default=_MISSING, default_factory=None, description=None, **extra):
        self.default = default
        self.default_factory = default_factory
        self.description = description
        self.extra = extra

    def value(self):
        if self.default_factory is not None:
            return self.default_factory()
        return None if self.default is _MISSING else self.default


def Field(default=_MISSING, *, default_factory=None, description=None, **extra):  # noqa: N802 (pydantic's name)
    if default is Ellipsis:
        default = _MISSING
    return FieldInfo(default, default_factory, description, **extra)


def ConfigDict(**values):  # noqa: N802
    return dict(values)


def _convert(value, kind):
    if kind in (str, int, float) and not isinstance(value, kind) and value is not None:
        return kind(value)
    if kind is bool and isinstance(value, str):
        return value.strip().lower() in ('1', 'true', 'yes', 'on')
    return value


class BaseModel:
    def __init__(self, **values):
        annotations = {}
        for cls in reversed(type(self).__mro__):
            annotations.update(getattr(cls, '__annotations__', {}))
        for name, kind in annotations.items():
            if name.startswith('_'):
                continue
            if name in values:
                value = _convert(values.pop(name), kind if isinstance(kind, type) else None)
            else:
                default = getattr(type(self), name, None)
                value = default.value() if isinstance(default, FieldInfo) else default
            object.__setattr__(self, name, value)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def model_dump(self):
        return {k: v for k, v in vars(self).items() if not k.startswith('_')}

    dict = model_dump

    def __repr__(self):
        return '%s(%s)' % (type(self).__name__, ', '.join('%s=%r' % kv for kv in self.model_dump().items()))
