"""Parse Python tool modules into OpenAI function specs without importing or running them.

Usage: python -I -S parse_modules.py < paths.json   (a JSON array of absolute paths)
Prints one JSON document: {"parserVersion": N, "modules": [...]}, one entry per path, in order.
Only the standard library is used; a broken file yields an error entry, never a crash.
"""
import ast
import json
import os
import sys

sys.dont_write_bytecode = True  # nothing is written beside the app's own scripts
# -I leaves this folder off sys.path: our siblings are imported from it explicitly.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_docstrings import parse_docstring  # noqa: E402
# parse_openwebui.py reads these through this module too.
from python_schema import SchemaBuilder, Unsupported, json_default, literal_or_none, literal_schema, type_name  # noqa: E402,F401

PARSER_VERSION = 3

POLICY_ATTRIBUTES = (
    'executionPolicy', 'resultApprovalPolicy',
    'permissionLevel', 'requireExecutionApproval', 'requireResultApproval',
    'timeout',
)


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
