"""Read Open WebUI Tools files (a top-level `class Tools`) without importing or running them.

Usage: python -I -S parse_openwebui.py < paths.json   (a JSON array of absolute paths)
Prints {"modules": [...]}, one entry per path, in order. An entry's "kind" is "open-webui" when
the file is an Open WebUI toolkit, "python" when it is a plain module for parse_modules.py (a
`class Tools` none of whose public methods has a docstring, and no Valves/UserValves).
Only the standard library is used; a broken file yields an error entry, never a crash.
"""
import ast
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # nothing is written beside the app's own scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parse_modules  # noqa: E402  (our sibling: docstrings, annotations, defaults)

# Frontmatter keys Open WebUI reads from the module docstring (`key: value` lines).
FRONTMATTER_LINE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_ ]*?)\s*:\s*(.*?)\s*$')
# A valve whose value belongs in the keychain: named like a credential.
SECRET_NAME = re.compile(r'(key|token|password|passwd|secret|credential)', re.IGNORECASE)
# ... or described as one.
SECRET_TEXT = re.compile(r'\b(secret|password|api[ _-]?key|token)\b', re.IGNORECASE)
KNOWN_INJECTED = ('__user__', '__event_emitter__', '__event_call__', '__metadata__', '__messages__',
                  '__files__', '__model__', '__id__')


def is_dunder(name):
    return len(name) > 4 and name.startswith('__') and name.endswith('__')


def frontmatter(doc):
    values = {}
    for line in (doc or '').splitlines():
        m = FRONTMATTER_LINE.match(line)
        if m and m.group(2):
            values[m.group(1).strip().lower().replace(' ', '_')] = m.group(2)
    return values


class ModuleTypes(parse_modules.SchemaBuilder):
    """Annotations that name an Enum or a pydantic model defined in the same file."""

    def __init__(self, diagnostics, classes, constants=None):
        super().__init__(diagnostics)
        self.classes = classes
        self.constants = constants or {}
        self.seen = set()

    def build(self, node, line):
        name = parse_modules.type_name(node) if node is not None else None
        cls = self.classes.get(name) if name else None
        if cls is not None and name not in self.seen:
            bases = {parse_modules.type_name(b) for b in cls.bases}
            if bases & {'Enum', 'StrEnum', 'IntEnum'}:
                values = [parse_modules.literal_or_none(s.value) for s in cls.body
                          if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)]
                values = [v for v in values if v is not None]
                return parse_modules.literal_schema([ast.Constant(v) for v in values]), False
            if 'BaseModel' in bases:
                self.seen.add(name)
                try:
                    return model_schema(cls, self), False
                finally:
                    self.seen.discard(name)
        return super().build(node, line)


def field_call(value):
    """(default node or None, description, has_default) of `= Field(...)` or a plain `= value`."""
    if value is None:
        return None, '', False
    if isinstance(value, ast.Call) and parse_modules.type_name(value.func) == 'Field':
        description = ''
        default, has_default = None, False
        if value.args and not (isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis):
            default, has_default = value.args[0], True
        for kw in value.keywords:
            if kw.arg == 'default':
                default, has_default = kw.value, True
            elif kw.arg == 'description':
                description = parse_modules.literal_or_none(kw.value) or ''
            elif kw.arg == 'default_factory':
                has_default = True
        return default, description if isinstance(description, str) else '', has_default
    return value, '', True


def model_fields(cls, builder):
    """[(name, schema, default-present, default value or None, description, line)] of a pydantic model body."""
    fields = []
    for statement in cls.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        name = statement.target.id
        schema, optional = builder.build(statement.annotation, statement.lineno)
        default_node, description, has_default = field_call(statement.value)
        # `API_URL = "https://…"` at the top of the file, then `= Field(default=API_URL)`.
        if isinstance(default_node, ast.Name) and default_node.id in getattr(builder, 'constants', {}):
            default_node = builder.constants[default_node.id]
        value = None
        if default_node is not None:
            try:
                value = parse_modules.json_default(default_node)
            except parse_modules.Unsupported:
                value = None
        if description:
            schema['description'] = description
        fields.append((name, schema, has_default or optional, value, description, statement.lineno))
    return fields


def model_schema(cls, builder):
    properties, required = {}, []
    for name, schema, has_default, value, _description, _line in model_fields(cls, builder):
        if value is not None:
            schema['default'] = value
        properties[name] = schema
        if not has_default:
            required.append(name)
    schema = {'type': 'object', 'properties': properties}
    if required:
        schema['required'] = required
    return schema


def valves_of(cls, builder):
    if cls is None:
        return None
    valves = []
    for name, schema, _has_default, value, description, line in model_fields(cls, builder):
        entry = {'name': name, 'schema': schema, 'default': value, 'line': line}
        if description:
            entry['description'] = description
        if SECRET_NAME.search(name) or SECRET_TEXT.search(description or ''):
            entry['secret'] = True
        valves.append(entry)
    return valves


def field_params(fn):
    """Parameters written `x: str = Field(...)`: their defaults replaced by what Field says.

    Returns {name: (description, required)}; a required one gets a None placeholder default (so
    the positions of the defaults stay as written) and is put back in `required` afterwards.
    """
    found = {}
    a = fn.args
    positional = a.posonlyargs + a.args
    offset = len(positional) - len(a.defaults)
    slots = [(positional[offset + i], i, a.defaults) for i in range(len(a.defaults))]
    slots += [(p, i, a.kw_defaults) for i, p in enumerate(a.kwonlyargs) if a.kw_defaults[i] is not None]
    for param, index, holder in slots:
        node = holder[index]
        if not (isinstance(node, ast.Call) and parse_modules.type_name(node.func) == 'Field'):
            continue
        default, description, has_default = field_call(node)
        holder[index] = default if (has_default and default is not None) else ast.Constant(None)
        found[param.arg] = (description, not has_default)
    return found


def apply_field_params(tool, fields):
    """The schema of `tool` with each Field's description and required-ness."""
    parameters = tool['function']['parameters']
    required = parameters.get('required', [])
    for name, (description, is_required) in fields.items():
        schema = parameters['properties'].get(name)
        if schema is None:
            continue
        if description and 'description' not in schema:
            schema['description'] = description
        if is_required:
            schema.pop('default', None)
            if name not in required:
                required.append(name)
    if required:
        parameters['required'] = required


def strip_method_args(fn):
    """A copy of `fn` without `self` and the injected `__x__` arguments (returned by name)."""
    copy = ast.parse(ast.unparse(fn)).body[0]
    a = copy.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    pairs = list(zip(positional, defaults))
    if pairs and pairs[0][0].arg in ('self', 'cls'):
        pairs = pairs[1:]
    injected = [p.arg for p, _ in pairs if is_dunder(p.arg)] + [p.arg for p in a.kwonlyargs if is_dunder(p.arg)]
    pairs = [(p, d) for p, d in pairs if not is_dunder(p.arg)]
    a.posonlyargs = []
    a.args = [p for p, _ in pairs]
    a.defaults = [d for _, d in pairs if d is not None]
    kw = [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if not is_dunder(p.arg)]
    a.kwonlyargs = [p for p, _ in kw]
    a.kw_defaults = [d for _, d in kw]
    ast.copy_location(copy, fn)
    copy.lineno = fn.lineno
    return copy, injected


def module_constants(tree):
    """`NAME = literal` assignments at the top of the module (the last one wins, as in Python)."""
    constants = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError, RecursionError):
                constants.pop(node.targets[0].id, None)
                continue
            constants[node.targets[0].id] = node.value
    return constants


def third_party_imports(tree):
    """[{name, line}] of the top-level modules a file imports outright at module level (not in a
    try block, not relative, not the standard library, not open_webui): each must be installed."""
    found, seen = [], set()
    stdlib = getattr(sys, 'stdlib_module_names', ())
    for node in tree.body:
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split('.')[0]
            if top in stdlib or top in seen or top in ('open_webui', '__future__'):
                continue
            seen.add(top)
            found.append({'name': top, 'line': node.lineno})
    return found


def imports_open_webui(tree):
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            if name == 'open_webui' or name.startswith('open_webui.'):
                found.append({'name': name, 'line': node.lineno})
    return found


def requirements_of(meta):
    text = meta.get('requirements', '')
    return [r.strip() for r in text.split(',') if r.strip()]


def parse_source(source):
    tree = ast.parse(source)
    # Python keeps the last `class Tools` a module defines; so do we.
    tools_classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == 'Tools']
    if not tools_classes:
        return {'kind': 'python'}
    tools_class = tools_classes[-1]
    nested = {n.name: n for n in tools_class.body if isinstance(n, ast.ClassDef)}
    methods = [n for n in tools_class.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith('_')]
    documented = any(ast.get_docstring(m) for m in methods)
    if not documented and 'Valves' not in nested and 'UserValves' not in nested:
        return {'kind': 'python'}
    diagnostics = []
    if len(tools_classes) > 1:
        diagnostics.append({
            'severity': 'warning', 'line': tools_class.lineno, 'code': 'duplicate-tools-class',
            'message': 'class Tools is defined again (first at line %d); the last definition is the one Python keeps, and its methods are the tools' % tools_classes[0].lineno,
            'hint': 'Delete the earlier class Tools.',
        })
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    builder = ModuleTypes(diagnostics, classes, module_constants(tree))
    doc = ast.get_docstring(tree) or ''
    meta = frontmatter(doc)
    tools = []
    needs_request = []
    seen = {}
    for method in methods:
        stripped, injected = strip_method_args(method)
        if '__request__' in injected:
            needs_request.append({'method': method.name, 'line': method.lineno})
        if method.name in seen:
            diagnostics.append({
                'severity': 'warning', 'line': method.lineno, 'code': 'duplicate-function',
                'message': 'Method %s() is defined again (first at line %d); the last definition is the one that runs' % (method.name, seen[method.name]),
            })
            tools = [t for t in tools if t['function']['name'] != method.name]
        seen[method.name] = method.lineno
        fields = field_params(stripped)
        tool = parse_modules.describe_function(stripped, diagnostics, builder)
        apply_field_params(tool, fields)
        tool['injected'] = injected
        tool['unknownInjected'] = [n for n in injected if n not in KNOWN_INJECTED and n != '__request__']
        if not ast.get_docstring(method):
            diagnostics.append({
                'severity': 'info', 'line': method.lineno, 'code': 'no-docstring',
                'message': 'Method %s() has no docstring: the model gets no description of it' % method.name,
                'hint': 'Say what it does in a docstring, with :param name: lines for its arguments.',
            })
        tools.append(tool)
    if not tools:
        diagnostics.append({
            'severity': 'warning', 'line': tools_class.lineno, 'code': 'empty-module',
            'message': 'No tools: class Tools has no public method',
            'hint': 'Define a method whose name does not start with "_"; it becomes a tool.',
        })
    uses_pydantic = any(
        (isinstance(n, ast.ImportFrom) and n.module and n.module.split('.')[0] == 'pydantic')
        or (isinstance(n, ast.Import) and any(a.name.split('.')[0] == 'pydantic' for a in n.names))
        for n in ast.walk(tree))
    return {
        'kind': 'open-webui',
        'frontmatter': meta,
        'description': meta.get('description') or ('' if meta else doc.strip()),
        'tools': tools,
        'valves': valves_of(nested.get('Valves'), builder),
        'userValves': valves_of(nested.get('UserValves'), builder),
        'openWebUiImports': imports_open_webui(tree),
        'imports': third_party_imports(tree),
        'needsRequest': needs_request,
        'requirements': requirements_of(meta),
        'usesPydantic': uses_pydantic,
        'line': tools_class.lineno,
        'diagnostics': diagnostics,
    }


def parse_path(path):
    try:
        with open(path, 'rb') as f:
            source = f.read().decode('utf-8-sig')
    except (OSError, UnicodeDecodeError):
        return {'path': path, 'ok': True, 'kind': 'python'}  # parse_modules.py says what is wrong
    try:
        module = parse_source(source)
    except SyntaxError:
        return {'path': path, 'ok': True, 'kind': 'python'}
    except (ValueError, RecursionError) as e:
        return {'path': path, 'ok': False, 'error': {'message': 'Cannot parse: %s' % e, 'code': 'parse-error'}}
    module['path'] = path
    module['ok'] = True
    return module


def main():
    paths = json.loads(sys.stdin.read() or '[]')
    sys.stdout.write(json.dumps({'modules': [parse_path(p) for p in paths]}))


if __name__ == '__main__':
    main()
