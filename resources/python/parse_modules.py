"""Parse Python tool modules into OpenAI function specs without importing or running them.

Usage: python -I -S parse_modules.py < paths.json   (a JSON array of absolute paths)
Prints one JSON document: {"parserVersion": N, "modules": [...]}, one entry per path, in order.
Only the standard library is used; a broken file yields an error entry, never a crash.
"""
import ast
import json
import re
import sys

PARSER_VERSION = 3

POLICY_ATTRIBUTES = (
    'executionPolicy', 'resultApprovalPolicy',
    'permissionLevel', 'requireExecutionApproval', 'requireResultApproval',
    'timeout',
)

SIMPLE_TYPES = {
    'str': {'type': 'string'}, 'string': {'type': 'string'},
    'int': {'type': 'integer'}, 'integer': {'type': 'integer'},
    'float': {'type': 'number'}, 'number': {'type': 'number'},
    'bool': {'type': 'boolean'}, 'boolean': {'type': 'boolean'},
    'list': {'type': 'array'}, 'List': {'type': 'array'}, 'Sequence': {'type': 'array'},
    'Iterable': {'type': 'array'}, 'set': {'type': 'array'}, 'Set': {'type': 'array'},
    'tuple': {'type': 'array'}, 'Tuple': {'type': 'array'},
    'dict': {'type': 'object'}, 'Dict': {'type': 'object'}, 'Mapping': {'type': 'object'},
    'object': {}, 'Any': {},
}
ARRAY_NAMES = {'list', 'List', 'Sequence', 'Iterable', 'set', 'Set', 'frozenset', 'FrozenSet'}
TUPLE_NAMES = {'tuple', 'Tuple'}
DICT_NAMES = {'dict', 'Dict', 'Mapping', 'MutableMapping'}

GOOGLE_PARAM_HEADERS = {'args', 'arguments', 'parameters', 'params', 'keyword args', 'keyword arguments', 'kwargs'}
GOOGLE_RETURN_HEADERS = {'returns', 'return', 'yields', 'yield'}
GOOGLE_DROPPED_HEADERS = {'raises', 'raise', 'exceptions'}
NUMPY_SECTION = re.compile(r'^\s*(Parameters|Other Parameters|Returns|Yields|Raises|Warns|See Also|Notes|Examples|References|Attributes)\s*$')


class Unsupported(Exception):
    pass


def type_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class SchemaBuilder:
    def __init__(self, diagnostics):
        self.diagnostics = diagnostics

    def build(self, node, line):
        """Returns (schema, optional) for an annotation node."""
        if node is None:
            return {}, False
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode='eval').body
            except SyntaxError:
                return self.unknown(node.value, line), False
        if isinstance(node, ast.Constant) and node.value is None:
            return {'type': 'null'}, True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.union(flatten_bitor(node), line)
        name = type_name(node)
        if name is not None:
            if name in SIMPLE_TYPES:
                return dict(SIMPLE_TYPES[name]), False
            if name == 'None' or name == 'NoneType':
                return {'type': 'null'}, True
            return self.unknown(ast.unparse(node), line), False
        if isinstance(node, ast.Subscript):
            base = type_name(node.value)
            inner = node.slice
            elements = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
            if base == 'Optional':
                schema, _ = self.build(elements[0], line)
                return schema, True
            if base == 'Union':
                return self.union(elements, line)
            if base == 'Literal':
                return literal_schema(elements), False
            if base == 'Annotated':
                schema, optional = self.build(elements[0], line)
                notes = [e.value for e in elements[1:] if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if notes:
                    schema['description'] = ' '.join(notes)
                return schema, optional
            if base in ARRAY_NAMES:
                items, _ = self.build(elements[0], line)
                return ({'type': 'array', 'items': items} if items else {'type': 'array'}), False
            if base in TUPLE_NAMES:
                if len(elements) == 2 and isinstance(elements[1], ast.Constant) and elements[1].value is Ellipsis:
                    items, _ = self.build(elements[0], line)
                    return {'type': 'array', 'items': items}, False
                prefix = [self.build(e, line)[0] for e in elements]
                return {'type': 'array', 'prefixItems': prefix, 'minItems': len(prefix), 'maxItems': len(prefix)}, False
            if base in DICT_NAMES:
                if len(elements) == 2:
                    values, _ = self.build(elements[1], line)
                    return ({'type': 'object', 'additionalProperties': values} if values else {'type': 'object'}), False
                return {'type': 'object'}, False
            return self.unknown(ast.unparse(node), line), False
        return self.unknown(ast.unparse(node), line), False

    def union(self, members, line):
        optional = False
        schemas = []
        for member in members:
            schema, member_optional = self.build(member, line)
            if schema == {'type': 'null'}:
                optional = True
                continue
            optional = optional or member_optional
            if schema not in schemas:
                schemas.append(schema)
        if not schemas:
            return {}, optional
        if len(schemas) == 1:
            return schemas[0], optional
        return {'anyOf': schemas}, optional

    def unknown(self, text, line):
        self.diagnostics.append({
            'severity': 'warning', 'line': line, 'code': 'unsupported-annotation',
            'message': 'Unsupported type annotation %r: the parameter is described to the model as a string' % text,
            'hint': 'Use str, int, float, bool, list[...], dict[...], Optional[...] or Literal[...] for tool parameters.',
        })
        return {'type': 'string', 'description': 'Expected a %s (passed as a string).' % text}


def flatten_bitor(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return flatten_bitor(node.left) + flatten_bitor(node.right)
    return [node]


def literal_schema(elements):
    values = []
    for e in elements:
        try:
            values.append(ast.literal_eval(e))
        except ValueError:
            pass
    kinds = {json_type(v) for v in values}
    schema = {'enum': values}
    if len(kinds) == 1 and None not in kinds:
        schema = {'type': kinds.pop(), 'enum': values}
    return schema


def json_type(value):
    if isinstance(value, bool):
        return 'boolean'
    if isinstance(value, int):
        return 'integer'
    if isinstance(value, float):
        return 'number'
    if isinstance(value, str):
        return 'string'
    if value is None:
        return 'null'
    return None


def json_default(node):
    """The default's JSON value, or raise Unsupported when it is not a JSON-able literal."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        raise Unsupported(ast.unparse(node))
    if isinstance(value, (tuple, set, frozenset)):
        value = list(value)
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        raise Unsupported(ast.unparse(node))
    return value


# ---- docstrings --------------------------------------------------------------------------------

def parse_docstring(doc):
    """Returns {description, params: {name: {type?, description}}, returns: {type?, description}?}."""
    if not doc:
        return {'description': '', 'params': {}, 'returns': None}
    lines = doc.expandtabs().splitlines()
    if any(re.match(r'^\s*:(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?)\b', l) for l in lines):
        return parse_rest(lines)
    for i in range(len(lines) - 1):
        if NUMPY_SECTION.match(lines[i]) and re.match(r'^\s*-{3,}\s*$', lines[i + 1]):
            return parse_numpy(lines)
    return parse_google(lines)


def clean_join(lines):
    text = '\n'.join(lines).strip('\n')
    return re.sub(r'\n{3,}', '\n\n', text).strip()


def indent_of(line):
    return len(line) - len(line.lstrip())


def parse_google(lines):
    description, params, returns = [], {}, None
    i = 0
    while i < len(lines):
        line = lines[i]
        header = line.strip().rstrip(':').lower() if line.strip().endswith(':') else None
        if header in GOOGLE_PARAM_HEADERS | GOOGLE_RETURN_HEADERS | GOOGLE_DROPPED_HEADERS:
            base = indent_of(line)
            body = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or indent_of(lines[i]) > base):
                body.append(lines[i])
                i += 1
            if header in GOOGLE_PARAM_HEADERS:
                params.update(google_entries(body))
            elif header in GOOGLE_RETURN_HEADERS:
                returns = google_returns(body)
            continue
        description.append(line)
        i += 1
    return {'description': clean_join(description), 'params': params, 'returns': returns}


def entry_lines(body):
    """The non-blank lines of a section, each with whether it starts an entry (least indented)."""
    texts = [l for l in body if l.strip()]
    base = min((indent_of(l) for l in texts), default=0)
    return [(l, indent_of(l) == base) for l in texts]


def append_description(entry, line):
    entry['description'] = (entry['description'] + ' ' + line.strip()).strip()


def google_entries(body):
    entries, current = {}, None
    for line, starts in entry_lines(body):
        if starts:
            m = re.match(r'^\s*\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$', line)
            if m:
                current = m.group(1)
                kind = (m.group(2) or '').replace(', optional', '').replace(',optional', '').strip()
                entries[current] = {'type': kind or None, 'description': m.group(3).strip()}
                continue
        if current:
            append_description(entries[current], line)
    return entries


def google_returns(body):
    text = ' '.join(l.strip() for l in body if l.strip())
    m = re.match(r'^([A-Za-z_][\w\[\], .|]*?)\s*:\s*(.*)$', text)
    if m and len(m.group(1)) < 60:
        return {'type': m.group(1).strip(), 'description': m.group(2).strip()}
    return {'type': None, 'description': text}


def parse_rest(lines):
    description, params, returns = [], {}, None
    types = {}
    field = None
    for line in lines:
        m = re.match(r'^\s*:(\w+)(?:\s+([^:]*?))?\s*:\s*(.*)$', line)
        if m:
            kind, target, text = m.group(1), (m.group(2) or '').strip(), m.group(3).strip()
            field = None
            if kind in ('param', 'parameter', 'arg', 'argument', 'key', 'keyword') and target:
                parts = target.split()
                name = parts[-1]
                params[name] = {'type': ' '.join(parts[:-1]) or None, 'description': text}
                field = ('param', name)
            elif kind == 'type' and target:
                types[target] = text
            elif kind in ('returns', 'return'):
                returns = returns or {'type': None, 'description': ''}
                returns['description'] = text
                field = ('returns', None)
            elif kind == 'rtype':
                returns = returns or {'type': None, 'description': ''}
                returns['type'] = text
            else:
                field = ('skip', None)
            continue
        if field is not None:
            if line.strip():
                if field[0] == 'param':
                    params[field[1]]['description'] += ' ' + line.strip()
                elif field[0] == 'returns':
                    returns['description'] = (returns['description'] + ' ' + line.strip()).strip()
            continue
        description.append(line)
    for name, kind in types.items():
        params.setdefault(name, {'type': None, 'description': ''})['type'] = kind
    return {'description': clean_join(description), 'params': params, 'returns': returns}


def parse_numpy(lines):
    description, params, returns = [], {}, None
    i = 0
    section = None
    while i < len(lines):
        line = lines[i]
        if NUMPY_SECTION.match(line) and i + 1 < len(lines) and re.match(r'^\s*-{3,}\s*$', lines[i + 1]):
            section = line.strip()
            i += 2
            continue
        if section is None or section in ('Notes', 'Examples', 'See Also', 'References'):
            if section is None:
                description.append(line)
            i += 1
            continue
        body = []
        while i < len(lines) and not (NUMPY_SECTION.match(lines[i]) and i + 1 < len(lines) and re.match(r'^\s*-{3,}\s*$', lines[i + 1])):
            body.append(lines[i])
            i += 1
        entries = numpy_entries(body)
        if section in ('Parameters', 'Other Parameters'):
            params.update(entries)
        elif section in ('Returns', 'Yields') and entries:
            first_name, first = next(iter(entries.items()))
            kind = first['type'] or first_name
            returns = {'type': kind, 'description': first['description']}
        section = None
    return {'description': clean_join(description), 'params': params, 'returns': returns}


def numpy_entries(body):
    entries, current = {}, None
    for line, starts in entry_lines(body):
        if starts:
            name, _, kind = line.strip().partition(':')
            current = name.strip()
            kind = kind.replace(', optional', '').strip()
            entries[current] = {'type': kind or None, 'description': ''}
        elif current:
            append_description(entries[current], line)
    return entries


# ---- modules -----------------------------------------------------------------------------------

def literal_or_none(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None


def describe_function(fn, diagnostics, builder=None):
    doc = parse_docstring(ast.get_docstring(fn))
    builder = builder or SchemaBuilder(diagnostics)
    properties, required = {}, []
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    for arg, default in params:
        name = arg.arg
        line = getattr(arg, 'lineno', fn.lineno)
        schema, optional = builder.build(arg.annotation, line)
        documented = doc['params'].get(name, {})
        text = documented.get('description') or ''
        if arg.annotation is None and documented.get('type'):
            text = (text + ' (expected type: %s)' % documented['type']).strip()
        if text:
            schema['description'] = text if 'description' not in schema else schema['description'] + ' ' + text
        if default is not None:
            try:
                value = json_default(default)
                if value is not None:
                    schema['default'] = value
            except Unsupported as e:
                diagnostics.append({
                    'severity': 'info', 'line': line, 'code': 'default-not-json',
                    'message': 'Default of %s() parameter "%s" (%s) is not a JSON value; it is left out of the schema' % (fn.name, name, e),
                })
        properties[name] = schema
        if default is None and not optional:
            required.append(name)
    for star, label in ((a.vararg, '*'), (a.kwarg, '**')):
        if star is not None:
            diagnostics.append({
                'severity': 'warning', 'line': getattr(star, 'lineno', fn.lineno), 'column': getattr(star, 'col_offset', 0) + 1,
                'code': 'variadic-parameter',
                'message': '%s() parameter %s%s is skipped: a tool is called with named arguments only' % (fn.name, label, star.arg),
                'hint': 'Declare each argument the tool accepts as a named parameter.',
            })
    for name in doc['params']:
        if name not in properties and name not in ((a.vararg and a.vararg.arg), (a.kwarg and a.kwarg.arg)):
            diagnostics.append({
                'severity': 'info', 'line': fn.lineno, 'code': 'docstring-unknown-param',
                'message': '%s() docstring documents "%s", which is not a parameter' % (fn.name, name),
            })
    parameters = {'type': 'object', 'properties': properties}
    if required:
        parameters['required'] = required
    tool = {
        'type': 'function',
        'function': {'name': fn.name, 'description': doc['description'], 'parameters': parameters},
        'line': fn.lineno,
    }
    returns = doc['returns']
    if fn.returns is not None or returns:
        kind = ast.unparse(fn.returns) if fn.returns is not None else (returns or {}).get('type') or 'any'
        declared = {'type': kind}
        if returns and returns.get('description'):
            declared['note'] = returns['description']
        tool['declaredReturnType'] = declared
    if isinstance(fn, ast.AsyncFunctionDef):
        tool['async'] = True
    return tool


def parse_source(source):
    tree = ast.parse(source)
    diagnostics = []
    functions = {}
    order = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith('_'):
            if node.name in functions:
                diagnostics.append({
                    'severity': 'warning', 'line': node.lineno, 'column': node.col_offset + 1, 'code': 'duplicate-function',
                    'message': 'Function %s() is defined again (first at line %d); the last definition is the one that runs' % (node.name, functions[node.name].lineno),
                    'hint': 'Rename or remove one of the definitions.',
                })
            else:
                order.append(node.name)
            functions[node.name] = node
    attributes = {name: {} for name in functions}
    formats = set()
    default_permissions = None
    secrets = []

    def set_attribute(owner, attr, value_node, node):
        if attr == 'format':
            formats.add(owner)
        elif attr in POLICY_ATTRIBUTES:
            value = literal_or_none(value_node)
            if value is None:
                diagnostics.append({
                    'severity': 'warning', 'line': node.lineno, 'code': 'attribute-not-literal',
                    'message': '%s.%s must be a literal value to be read without running the module' % (owner, attr),
                })
            else:
                attributes[owner][attr] = value

    for node in tree.body:
        # setattr(fn, 'permissionLevel', 'public'), as sy-f-misc scripts may write it.
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id == 'setattr' and len(node.value.args) == 3 and not node.value.keywords:
            owner, attr, value_node = node.value.args
            if isinstance(owner, ast.Name) and owner.id in functions and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                set_attribute(owner.id, attr.value, value_node, node)
            continue
        # for f in (a, b): f.permissionLevel = 'public'
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(node.iter, (ast.Tuple, ast.List)) \
                and node.iter.elts and all(isinstance(e, ast.Name) and e.id in functions for e in node.iter.elts):
            for statement in node.body:
                for target in statement.targets if isinstance(statement, ast.Assign) else []:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == node.target.id:
                        for owner in node.iter.elts:
                            set_attribute(owner.id, target.attr, statement.value, statement)
            continue
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) and not inner.name.startswith('_') and inner.name not in functions:
                    diagnostics.append({
                        'severity': 'warning', 'line': inner.lineno, 'column': inner.col_offset + 1, 'code': 'conditional-function',
                        'message': 'Function %s() is defined inside a module-level if/try/with block; it is not a tool, because the module is read without running it' % inner.name,
                        'hint': 'Define it at the top level of the module (choose the behaviour inside the function).',
                    })
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id in functions:
                set_attribute(target.value.id, target.attr, node.value, node)
            elif isinstance(target, ast.Name) and target.id == 'defaultPermissions':
                value = literal_or_none(node.value)
                if isinstance(value, dict):
                    default_permissions = value
                else:
                    diagnostics.append({
                        'severity': 'warning', 'line': node.lineno, 'code': 'default-permissions-not-literal',
                        'message': 'defaultPermissions must be a literal dict, e.g. {"executionPolicy": "ask-once"}',
                    })
            elif isinstance(target, ast.Name) and target.id == '__secrets__':
                value = literal_or_none(node.value)
                if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                    secrets = list(value)
                else:
                    diagnostics.append({
                        'severity': 'warning', 'line': node.lineno, 'code': 'secrets-not-literal',
                        'message': '__secrets__ must be a literal list of names, e.g. ["GITHUB_TOKEN"]',
                    })
    tools = []
    for name in order:
        tool = describe_function(functions[name], diagnostics)
        tool['attributes'] = attributes[name]
        tool['hasFormat'] = name in formats
        tools.append(tool)
    if not tools:
        diagnostics.append({
            'severity': 'warning', 'line': 1, 'code': 'empty-module',
            'message': 'No tools: the module defines no public top-level function',
            'hint': 'Define a function whose name does not start with "_"; it becomes a tool.',
        })
    return {
        'rulePrompt': ast.get_docstring(tree) or '',
        'tools': tools,
        'defaultPermissions': default_permissions,
        'secrets': secrets,
        'diagnostics': diagnostics,
    }


def parse_path(path):
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        return {'path': path, 'ok': False, 'error': {'message': 'Cannot read the file: %s' % e.strerror, 'code': 'unreadable'}}
    try:
        source = data.decode('utf-8-sig')
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b'\n') + 1
        column = e.start - (data.rfind(b'\n', 0, e.start) + 1) + 1
        return {'path': path, 'ok': False, 'error': {
            'message': 'The file is not valid UTF-8 (byte 0x%02x)' % data[e.start], 'line': line, 'column': column,
            'code': 'not-utf8', 'hint': 'Save the file as UTF-8.',
        }}
    try:
        module = parse_source(source)
    except SyntaxError as e:
        return {'path': path, 'ok': False, 'error': {
            'message': 'Syntax error: %s' % e.msg, 'line': e.lineno, 'column': e.offset,
            'code': 'syntax-error', 'hint': 'Fix the syntax error; the module is skipped until then.',
        }}
    except (ValueError, RecursionError) as e:
        return {'path': path, 'ok': False, 'error': {'message': 'Cannot parse: %s' % e, 'code': 'parse-error'}}
    module['path'] = path
    module['ok'] = True
    return module


def main():
    paths = json.loads(sys.stdin.read() or '[]')
    modules = [parse_path(p) for p in paths]
    sys.stdout.write(json.dumps({'parserVersion': PARSER_VERSION, 'modules': modules}))


if __name__ == '__main__':
    main()
